package dev.forge.memory.postgres.internal;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.support.SearchText;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The keyword document of each entry: a {@code tsvector} of its {@link SearchText} (value, key, tags and the metadata
 * fields {@code search_fields} names) in the text search configuration {@code language}. The {@code settings} table
 * records what the documents were built with; a provider opened with other settings rebuilds them all.
 *
 * @param language the text search configuration
 * @param text     what is indexed
 */
public record PgDocuments(String language, SearchText text) {

    /**
     * The most characters of an entry's text that are indexed: a {@code tsvector} holds at most 1 MB, and a value of
     * 1 MiB of distinct words would pass it. Words after this many characters are not found by keyword search.
     */
    static final int MAX_INDEXED_CHARS = 256 * 1024;

    /** The SQL of a document: two parameters, bound by {@link #bind}. */
    static final String DOCUMENT = "to_tsvector(?::regconfig, ?)";

    /** Binds the language and the entry's text at {@code index}; returns the next free index. */
    int bind(PreparedStatement statement, int index, MemoryEntry entry) throws SQLException {
        statement.setString(index, language);
        statement.setString(index + 1, indexed(text.text(entry)));
        return index + 2;
    }

    /** The text as indexed: without U+0000 (which PostgreSQL text cannot hold), cut at {@link #MAX_INDEXED_CHARS}. */
    static String indexed(String text) {
        String cut = text.length() > MAX_INDEXED_CHARS ? text.substring(0, MAX_INDEXED_CHARS) : text;
        return cut.replace('\u0000', ' ');
    }

    /** The settings row these documents are recorded under. */
    private String recorded() {
        return language + "|" + String.join(",", text.fields());
    }

    /**
     * Checks {@code language} against the server, and rebuilds every document of the schema when the settings recorded
     * differ from these; in the caller's transaction, after {@link PgSchema#migrate}.
     *
     * @throws ConfigurationException for a language the server does not know, listing those it does
     */
    void apply(Connection connection, String where) throws SQLException {
        List<String> known = new ArrayList<>();
        boolean found = false;
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT cfgname, cfgname = ? OR ? = n.nspname || '.' || cfgname FROM pg_ts_config c"
                        + " JOIN pg_namespace n ON n.oid = c.cfgnamespace ORDER BY cfgname")) {
            statement.setString(1, language);
            statement.setString(2, language);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    known.add(rows.getString(1));
                    found |= rows.getBoolean(2);
                }
            }
        }
        if (!found) {
            throw new ConfigurationException("'language' is '" + language + "', which PostgreSQL at " + where
                    + " has no text search configuration for: use one of " + String.join(", ", known) + ".",
                    null, "language", null);
        }
        String stored = null;
        try (PreparedStatement statement = connection.prepareStatement("SELECT value FROM settings WHERE name = 'documents'")) {
            try (ResultSet rows = statement.executeQuery()) {
                if (rows.next()) {
                    stored = rows.getString(1);
                }
            }
        }
        if (recorded().equals(stored)) {
            return;
        }
        if (stored != null || hasEntries(connection)) {
            rebuild(connection, where);
        }
        try (PreparedStatement statement = connection.prepareStatement("INSERT INTO settings (name, value)"
                + " VALUES ('documents', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value")) {
            statement.setString(1, recorded());
            statement.executeUpdate();
        }
    }

    private static boolean hasEntries(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT EXISTS (SELECT 1 FROM entries)");
             ResultSet rows = statement.executeQuery()) {
            rows.next();
            return rows.getBoolean(1);
        }
    }

    /** Rebuilds every document from the entries, a batch of rows at a time. */
    private void rebuild(Connection connection, String where) throws SQLException {
        long after = 0;
        while (true) {
            List<Long> ids = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement("SELECT e.id, " + PgRows.ENTRY_COLUMNS
                    + " FROM entries e WHERE e.id > ? ORDER BY e.id LIMIT 500")) {
                select.setLong(1, after);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        ids.add(rows.getLong(1));
                        String indexed;
                        try {
                            indexed = text.text(PgRows.entry(rows, 2, where));
                        } catch (CorruptEntryException e) {
                            // an unreadable row keeps the text of its value; reads report the row
                            indexed = new String(rows.getBytes(4), StandardCharsets.UTF_8);
                        }
                        texts.add(indexed);
                    }
                }
            }
            if (ids.isEmpty()) {
                return;
            }
            try (PreparedStatement update = connection.prepareStatement("UPDATE entries SET document = " + DOCUMENT
                    + " WHERE id = ?")) {
                for (int i = 0; i < ids.size(); i++) {
                    update.setString(1, language);
                    update.setString(2, indexed(texts.get(i)));
                    update.setLong(3, ids.get(i));
                    update.addBatch();
                }
                update.executeBatch();
            }
            after = ids.get(ids.size() - 1);
        }
    }
}
