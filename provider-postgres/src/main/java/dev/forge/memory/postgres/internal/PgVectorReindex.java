package dev.forge.memory.postgres.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Reindexing;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives entries the vector of the provider's model: those that lack one when a provider opens (written by a provider
 * without a model, or by another model's), and every entry of the schema in a reindex. Batches of {@value #BATCH}
 * entries: read, embedded outside any SQL transaction, then written in one short transaction that stores a vector
 * only where the entry still holds the text it was made of and has no vector of this model yet, so that a write
 * made meanwhile (which stores its own vector) is never overwritten by an older text's.
 */
public final class PgVectorReindex {

    private static final Logger LOG = LoggerFactory.getLogger(PgVectorReindex.class);
    static final int BATCH = 500;
    /** How many times a reindex looks again for entries written meanwhile without this model's vector. */
    private static final int ROUNDS = 10;

    private final PgStore store;
    private final PgVectors vectors;

    /** The rebuilds of {@code store}'s vectors. */
    public PgVectorReindex(PgStore store, PgVectors vectors) {
        this.store = store;
        this.vectors = vectors;
    }

    /**
     * Embeds the entries that have no vector of the model, unless the provider was opened for reindex on another
     * model's vectors (the reindex will). Called once when a provider opens.
     */
    public void catchUp() {
        if (vectors.model().isEmpty() || !vectors.ready()) {
            return;
        }
        long embedded = embedMissing(Reindexing.Progress.NONE, 0, 0);
        if (embedded > 0) {
            LOG.info("Embedded {} entries of {} that had no vector of model '{}'", embedded, store.database().describe(),
                    vectors.model().get().name());
        }
    }

    /**
     * Re-embeds every entry of the schema (every project and session) with the model, then records its fingerprint
     * in a transaction that first checks that no entry is left without a vector of the model.
     */
    public Reindexing.ReindexResult reindex(Reindexing.Progress progress) {
        store.checkOpen();
        long started = System.nanoTime();
        String fingerprint = vectors.model().orElseThrow().fingerprint();
        vectors.retag(fingerprint);
        store.database().write("create the vector index", connection -> {
            vectors.createIndex(connection);
            return null;
        });
        long total = store.database().read("count the entries", connection -> {
            try (Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT count(*) FROM entries")) {
                rows.next();
                return rows.getLong(1);
            }
        });
        progress.update(0, total);
        long done = embed("TRUE", progress, total, 0);
        for (int round = 0; ; round++) {
            embedMissing(progress, total, done);
            boolean recorded = store.database().write("record the embedding model", connection -> {
                if (missing(connection) > 0) {
                    return false;
                }
                PgVectors.record(connection, fingerprint);
                dropOtherIndexes(connection);
                return true;
            });
            if (recorded) {
                break;
            }
            if (round == ROUNDS) {
                throw new BackendUnavailableException("The reindex of " + store.database().describe() + " found entries "
                        + "written without a vector of model '" + fingerprint + "' after " + ROUNDS + " rounds: another "
                        + "process keeps writing with another model. Stop it and run forge-memory reindex again.");
            }
        }
        vectors.markReady(fingerprint);
        progress.update(total, total);
        LOG.info("Reindexed {} entries of {} with model '{}'", total, store.database().describe(), fingerprint);
        return new Reindexing.ReindexResult(total, fingerprint, Duration.ofNanos(System.nanoTime() - started));
    }

    private long embedMissing(Reindexing.Progress progress, long total, long done) {
        return embed("NOT EXISTS (SELECT 1 FROM embeddings v WHERE v.entry_id = e.id AND v.model = " + vectors.tag() + ")",
                progress, total, done);
    }

    private long missing(java.sql.Connection connection) throws java.sql.SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT count(*) FROM entries e WHERE NOT EXISTS (SELECT 1 FROM"
                     + " embeddings v WHERE v.entry_id = e.id AND v.model = " + vectors.tag() + ")")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** The HNSW indexes of other models: their rows are replaced, and the indexes would only cost writes. */
    private void dropOtherIndexes(java.sql.Connection connection) throws java.sql.SQLException {
        List<String> others = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement("SELECT indexname FROM pg_indexes WHERE schemaname"
                + " = current_schema() AND tablename = 'embeddings' AND indexname LIKE 'embeddings\\_hnsw\\_%' AND indexname <> ?")) {
            statement.setString(1, "embeddings_hnsw_" + Long.toHexString(vectors.tag()));
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    others.add(rows.getString(1));
                }
            }
        }
        try (Statement statement = connection.createStatement()) {
            for (String index : others) {
                statement.execute("DROP INDEX IF EXISTS \"" + index + "\"");
            }
        }
    }

    /**
     * A row read for embedding: the entry ({@code null} when it cannot be read), and its stored value and tags, which
     * the write checks are unchanged.
     */
    private record Row(long id, MemoryEntry entry, byte[] value, String tags) {
    }

    /** Embeds the entries matching {@code condition} (on alias {@code e}), a batch at a time; returns how many. */
    private long embed(String condition, Reindexing.Progress progress, long total, long done) {
        long after = 0;
        long count = 0;
        while (true) {
            long from = after;
            List<Row> batch = store.database().read("read entries to embed", connection -> {
                List<Row> rows = new ArrayList<>();
                try (PreparedStatement select = connection.prepareStatement("SELECT e.id, " + PgRows.ENTRY_COLUMNS
                        + " FROM entries e WHERE e.id > ? AND " + condition + " ORDER BY e.id LIMIT " + BATCH)) {
                    select.setLong(1, from);
                    try (ResultSet results = select.executeQuery()) {
                        while (results.next()) {
                            MemoryEntry entry = null;
                            try {
                                entry = PgRows.entry(results, 2, store.database().describe());
                            } catch (CorruptEntryException e) {
                                // recorded without a vector, as a text without words is; reads report the row
                                LOG.warn("Not embedding an unreadable row of {}: {}", store.database().describe(), e.getMessage());
                            }
                            rows.add(new Row(results.getLong(1), entry, results.getBytes(4), results.getString(5)));
                        }
                    }
                }
                return rows;
            });
            if (batch.isEmpty()) {
                return count;
            }
            List<MemoryEntry> readable = batch.stream().map(Row::entry).filter(java.util.Objects::nonNull).toList();
            java.util.Iterator<float[]> embedded = vectors.embed(readable).iterator();
            List<float[]> made = new ArrayList<>(batch.size());
            batch.forEach(row -> made.add(row.entry() == null ? null : embedded.next()));
            store.database().write("store the vectors of " + batch.size() + " entries", connection -> {
                String extension = vectors.extension();
                try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO embeddings (entry_id, model,"
                        + " embedding) SELECT e.id, ?, ?::" + extension + ".vector FROM entries e WHERE e.id = ?"
                        + " AND e.value = ? AND e.tags = ? ON CONFLICT (entry_id) DO UPDATE SET model = excluded.model,"
                        + " embedding = excluded.embedding WHERE embeddings.model <> excluded.model")) {
                    for (int i = 0; i < batch.size(); i++) {
                        Row row = batch.get(i);
                        upsert.setLong(1, vectors.tag());
                        upsert.setString(2, made.get(i) == null ? null : PgVectors.literal(made.get(i)));
                        upsert.setLong(3, row.id());
                        upsert.setBytes(4, row.value());
                        upsert.setString(5, row.tags());
                        upsert.addBatch();
                    }
                    upsert.executeBatch();
                }
                return null;
            });
            count += batch.size();
            after = batch.get(batch.size() - 1).id();
            if (total > 0) {
                progress.update(Math.min(total, done + count), total);
            }
        }
    }
}
