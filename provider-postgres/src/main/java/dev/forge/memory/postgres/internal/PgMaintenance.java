package dev.forge.memory.postgres.internal;

import dev.forge.memory.Hit;
import dev.forge.memory.SearchRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;

/** What the provider does beside entries: opening the schema, field indexes, and the way into search. */
public final class PgMaintenance {

    private final PgStore store;

    /** Maintenance of {@code store}'s schema. */
    public PgMaintenance(PgStore store) {
        this.store = store;
    }

    /**
     * Creates or migrates the schema, prepares the vectors ({@link PgVectors#prepare}) and brings the keyword documents
     * to {@code documents}' settings, in one transaction: the first connection to the server, so a server that is
     * down fails here.
     *
     * @param forReindex whether the provider opens to rebuild its vectors with another model
     * @param source     the config file naming the model, for a mismatch's message, or {@code null}
     * @param field      the dotted path of the embedding block, for messages
     */
    public static void prepare(PgDatabase database, PgDocuments documents, PgVectors vectors, boolean forReindex,
            String source, String field) {
        database.writeDirectly("open the store", connection -> {
            PgSchema.migrate(connection, database.schema(), database.describe());
            vectors.prepare(connection, database.describe(), forReindex, source, field);
            documents.apply(connection, database.describe());
            return null;
        });
    }

    /** Keyword search; see {@link PgSearch}. */
    public static List<Hit> search(PgStore store, SearchRequest request) {
        return PgSearch.search(store, request);
    }

    /**
     * Creates, if missing, an expression index on top-level metadata field {@code name}, which the SQL of equality
     * filters on that field uses. Serialised on an advisory lock, so two processes never create it at once.
     */
    public void index(String name) {
        store.checkOpen();
        PgDatabase database = store.database();
        database.write("index metadata field '" + name + "'", connection -> {
            try (PreparedStatement lock = connection.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?))")) {
                lock.setString(1, "forge-memory index " + database.schema());
                lock.execute();
            }
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE INDEX IF NOT EXISTS " + indexName(name) + " ON entries ("
                        + PgSql.metadataField(name).replace("e.metadata", "metadata") + ")");
            }
            return null;
        });
    }

    /** The name of the index on metadata field {@code name}: a digest, so the field's text never reaches an identifier. */
    static String indexName(String name) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            return "entries_metadata_" + HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
