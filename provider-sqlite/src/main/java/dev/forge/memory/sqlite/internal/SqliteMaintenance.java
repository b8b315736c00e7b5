package dev.forge.memory.sqlite.internal;

import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.StoreProblem;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The upkeep of a {@link SqliteStore}'s file: metadata indexes, and the checks {@code doctor} reports. */
public final class SqliteMaintenance {

    private final SqliteStore store;

    /** Upkeep of {@code store}. */
    public SqliteMaintenance(SqliteStore store) {
        this.store = store;
    }

    /** Creates the index that serves equality on metadata field {@code field}, if missing. */
    public void index(String field) {
        Objects.requireNonNull(field, "field");
        String path = Statements.jsonPathLiteral(field).orElseThrow(() -> new InvalidRequestException("Cannot index metadata "
                + "field '" + field + "': index a field name that is not empty and has no '\"', '\\' or control characters."));
        store.checkOpen();
        store.database().write("index metadata field '" + field + "'", connection -> {
            try (Statement statement = connection.createStatement()) {
                statement.execute(Statements.createMetadataIndex(field, path));
            }
            return null;
        });
    }

    /**
     * SQLite's {@code integrity_check} and {@code foreign_key_check}, the search index against the entries, and every
     * row whose tags or metadata do not parse; each problem located at the database file.
     */
    public List<StoreProblem> doctor() {
        store.checkOpen();
        String location = store.path().toString();
        List<StoreProblem> problems = new ArrayList<>();
        store.database().read("check the database", connection -> {
            try (Statement statement = connection.createStatement()) {
                // A search first: FTS5 reloads its segment list from the file when a query reads the index, but
                // integrity_check reuses what this read connection cached at its last search, and reports segments a
                // later write merged away as corruption.
                try (ResultSet ignored = statement.executeQuery(
                        Statements.SEARCH_INDEX_PROBE)) {
                    ignored.next();
                }
                try (ResultSet rows = statement.executeQuery(Statements.INTEGRITY_CHECK)) {
                    while (rows.next()) {
                        if (!"ok".equals(rows.getString(1))) {
                            problems.add(new StoreProblem(location, "integrity_check: " + rows.getString(1)
                                    + "; export what can be read and restore the file from a backup"));
                        }
                    }
                }
                try (ResultSet rows = statement.executeQuery(Statements.FOREIGN_KEY_CHECK)) {
                    while (rows.next()) {
                        problems.add(new StoreProblem(location, "foreign_key_check: row " + rows.getLong(2) + " of table "
                                + rows.getString(1) + " points at a missing row of " + rows.getString(3)
                                + "; delete it with a SQLite tool"));
                    }
                }
                for (String table : List.of("entries", "versions")) {
                    try (ResultSet rows = statement.executeQuery(Statements.storedRows(table))) {
                        while (rows.next()) {
                            try {
                                Rows.entry(rows, store.path());
                            } catch (CorruptEntryException e) {
                                problems.add(new StoreProblem(location, "row " + rows.getLong("id") + " of table " + table
                                        + ": " + e.getMessage()));
                            }
                        }
                    }
                }
            }
            return null;
        });
        try {
            store.database().check("check the search index", connection -> {
                try (Statement statement = connection.createStatement()) {
                    statement.execute(Statements.SEARCH_INDEX_CHECK);
                }
                return null;
            });
        } catch (dev.forge.memory.StorageException e) {
            problems.add(new StoreProblem(location, "the keyword search index does not match the entries ("
                    + e.getCause().getMessage() + "); rebuild it with: INSERT INTO entries_fts (entries_fts) VALUES ('rebuild')"));
        }
        return List.copyOf(problems);
    }
}
