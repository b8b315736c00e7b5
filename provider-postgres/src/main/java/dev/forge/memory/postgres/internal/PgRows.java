package dev.forge.memory.postgres.internal;

import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.Keys;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.support.EntryJson;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/** How an entry is read from a row of {@code entries} or {@code versions}. */
final class PgRows {

    /** The columns an entry is read from, of table alias {@code e}; the same names exist in {@code versions}. */
    static final String ENTRY_COLUMNS = "e.key, e.scope, e.value, e.tags, e.metadata, e.created_at, e.updated_at, e.version";

    private PgRows() {
    }

    /** The value as stored: its UTF-8 bytes (PostgreSQL text cannot hold U+0000, a value can). */
    static byte[] value(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The entry in the current row, whose {@link #ENTRY_COLUMNS} start at column {@code first}.
     *
     * @throws CorruptEntryException if the row cannot be an entry (JSON that does not parse, a bad scope, ...)
     */
    static MemoryEntry entry(ResultSet rows, int first, String where) throws SQLException {
        String key = rows.getString(first);
        String scopeId = rows.getString(first + 1);
        try {
            byte[] value = rows.getBytes(first + 2);
            if (value == null) {
                throw new IllegalArgumentException("its value is NULL");
            }
            return new MemoryEntry(key, new String(value, StandardCharsets.UTF_8), Scope.parse(scopeId),
                    EntryJson.parseTags(rows.getString(first + 3)), EntryJson.parseMetadata(rows.getString(first + 4)),
                    Instant.ofEpochMilli(rows.getLong(first + 5)), Instant.ofEpochMilli(rows.getLong(first + 6)),
                    rows.getLong(first + 7));
        } catch (IllegalArgumentException | NullPointerException | InvalidRequestException | InvalidEntryException e) {
            throw corrupt(where, key, scopeId, e);
        }
    }

    static CorruptEntryException corrupt(String where, String key, String scope, Exception e) {
        return new CorruptEntryException("The row of key '" + (key == null ? "(null)" : Keys.abbreviate(key)) + "' ("
                + scope + ") in PostgreSQL at " + where + " cannot be read: " + e.getMessage()
                + " Fix or delete the row with psql, or purge the key.", e);
    }
}
