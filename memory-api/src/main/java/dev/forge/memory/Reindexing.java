package dev.forge.memory;

import java.time.Duration;
import java.util.Objects;

/**
 * Rebuilds a provider's derived indexes (vectors, full-text) from the entries it stores, with the embedding model it
 * is configured with now. Present exactly when {@link Capability#REINDEX} is listed.
 *
 * <p>A provider that keeps vectors records the {@link dev.forge.memory.embedding.EmbeddingModel#fingerprint()
 * fingerprint} of the model that made them and refuses to open with a model of another fingerprint
 * ({@link IndexModelMismatchException}). To change models, open it with
 * {@link dev.forge.memory.spi.ProviderContext#openForReindex()} set (the CLI's {@code forge-memory reindex} does),
 * then call {@link #reindex(Progress)}: until it returns, searches that need the old vectors are refused.
 *
 * <p>Reindexing never changes an entry: keys, values, versions and timestamps stay as they are. It rebuilds the
 * indexes of every project and session the store holds, not only those of the provider's own.
 */
public interface Reindexing {

    /**
     * Re-embeds and re-indexes every stored entry, then records the configured model's fingerprint with the index.
     * A write made meanwhile by another thread is never lost: it either waits for the reindex (or for the part of
     * it that holds its key) or is embedded with the configured model itself. If it fails part way, no stored entry is lost and the index never
     * silently mixes two models: a provider either keeps its previous index and fingerprint (rolls back) or marks
     * the index incomplete; in both cases opening with the new model is refused until a reindex succeeds.
     *
     * @param progress told how far the rebuild is, from the calling thread, at least at the start and the end
     * @return what was rebuilt
     * @throws BackendUnavailableException if the embedding model cannot be reached
     * @throws StorageException            if the index cannot be written
     */
    ReindexResult reindex(Progress progress);

    /** {@link #reindex(Progress)} without progress reports. */
    default ReindexResult reindex() {
        return reindex(Progress.NONE);
    }

    /** Reports how many entries of how many are done. */
    @FunctionalInterface
    interface Progress {
        /** Ignores every report. */
        Progress NONE = (done, total) -> { };

        /**
         * {@code done} of {@code total} entries are re-indexed; {@code done} never decreases; the last report has
         * {@code done == total}.
         */
        void update(long done, long total);
    }

    /**
     * What a reindex did.
     *
     * @param entries     the number of stored entries (versions included where the index holds them) re-indexed
     * @param fingerprint the fingerprint of the model the index is now built with, or empty if it holds no vectors
     * @param took        how long it took
     */
    record ReindexResult(long entries, String fingerprint, Duration took) {
        /** Checks the values. */
        public ReindexResult {
            if (entries < 0) {
                throw new IllegalArgumentException("entries must not be negative: " + entries);
            }
            Objects.requireNonNull(fingerprint, "fingerprint");
            Objects.requireNonNull(took, "took");
        }
    }
}
