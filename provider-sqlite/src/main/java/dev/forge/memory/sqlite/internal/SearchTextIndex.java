package dev.forge.memory.sqlite.internal;

import dev.forge.memory.support.SearchText;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code search_fields} setting in a database (schema step 5): the FTS5 index has the columns key, value, tags and
 * {@code search_text}, the text of the metadata fields the setting names. Key and tags are left out of a search by a
 * column filter; {@code search_text} is written with each entry and refilled for every row, in one transaction,
 * when a provider opens the database with other metadata fields than it records.
 */
final class SearchTextIndex {

    private static final Logger LOG = LoggerFactory.getLogger(SearchTextIndex.class);

    private static final String SETTING = "search_fields";
    private static final String RECORDED = "SELECT value FROM search_settings WHERE name = '" + SETTING + "'";
    private static final String RECORD = "INSERT INTO search_settings (name, value) VALUES ('" + SETTING + "', ?)"
            + " ON CONFLICT (name) DO UPDATE SET value = excluded.value";

    private SearchTextIndex() {
    }

    /** The FTS5 query {@code match} restricted to the columns {@code text} searches. */
    static String match(SearchText text, String match) {
        if (text.includes("key") && text.includes("tags")) {
            return match;
        }
        StringBuilder columns = new StringBuilder("value search_text");
        if (text.includes("key")) {
            columns.append(" key");
        }
        if (text.includes("tags")) {
            columns.append(" tags");
        }
        return "{" + columns + "} : (" + match + ")";
    }

    /**
     * Makes every row's {@code search_text} that of {@code text}'s metadata fields, if the database records others
     * (a database without a record was filled with none); checked in a read first, so that an unchanged setting costs
     * no write.
     */
    static void apply(Database database, SearchText text) {
        String wanted = String.join("\n", text.metadataFields());
        if (database.read("read the search_fields setting", connection -> recorded(connection).equals(wanted))) {
            return;
        }
        int rows = database.write("index search_fields " + text.fields(), connection -> {
            if (recorded(connection).equals(wanted)) {
                return 0;
            }
            List<Long> ids = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement("SELECT id, metadata FROM entries");
                    ResultSet results = select.executeQuery()) {
                while (results.next()) {
                    ids.add(results.getLong(1));
                    texts.add(text.metadataText(Rows.metadata(results.getString(2))));
                }
            }
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE entries SET search_text = ? WHERE id = ? AND search_text IS NOT ?")) {
                for (int i = 0; i < ids.size(); i++) {
                    update.setString(1, texts.get(i));
                    update.setLong(2, ids.get(i));
                    update.setString(3, texts.get(i));
                    update.addBatch();
                }
                update.executeBatch();
            }
            try (PreparedStatement record = connection.prepareStatement(RECORD)) {
                record.setString(1, wanted);
                record.executeUpdate();
            }
            return ids.size();
        });
        LOG.info("The keyword index of {} now holds search_fields {} ({} entries re-indexed)", database.path(),
                text.fields(), rows);
    }

    private static String recorded(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(RECORDED);
                ResultSet results = statement.executeQuery()) {
            return results.next() ? results.getString(1) : "";
        }
    }
}
