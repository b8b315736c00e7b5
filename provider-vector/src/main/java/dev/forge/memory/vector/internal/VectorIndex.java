package dev.forge.memory.vector.internal;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.embedding.EmbeddingModel;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.IndexSearcher;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One Lucene index directory of the vector provider, as the provider uses it: read through a searcher that sees every
 * completed write, written by {@linkplain #write one change at a time}, rebuilt whole by a reindex. Two kinds: the
 * project's {@link SharedIndex}, whose writer stays open (one process at a time), and the {@link GlobalIndex} every
 * project of the user shares, whose writer is opened for each write (many processes, one writer at a time).
 */
public interface VectorIndex {

    /** The directory's real path. */
    Path directory();

    /** What the index records about its vectors now. */
    IndexState state();

    /** Runs {@code work} on a searcher that sees every completed write. */
    <T> T read(SearcherWork<T> work);

    /** Runs {@code work} alone, then makes its changes durable and visible before returning. */
    <T> T write(ChangeWork<T> work);

    /**
     * Records {@code newState} with the next commit, for writes of a provider whose model differs from the index's
     * (opened for a reindex): the index is then marked incomplete. Call inside {@link #write}.
     */
    void recordState(IndexState newState);

    /**
     * The index's state, after putting {@code model}'s fingerprint in place of the recorded one if that is the model's
     * in an earlier form ({@link IndexState#recordedInAnEarlierForm}): committed at once, so that an earlier form,
     * which may hold a secret, leaves the index (Lucene keeps only the last commit).
     */
    default IndexState adoptRecognised(EmbeddingModel model) {
        IndexState recorded = state();
        if (!recorded.recordedInAnEarlierForm(model)) {
            return recorded;
        }
        rebuild(new IndexState(model.fingerprint(), model.name(), model.dimension(), recorded.complete(),
                recorded.searchFields()),
                (writer, searcher) -> null);
        org.slf4j.LoggerFactory.getLogger(VectorIndex.class).info("The vector index at {} now records its model's "
                + "fingerprint in the current form: {}", directory(), model.fingerprint());
        return state();
    }

    /**
     * Runs {@code rebuild} with no other write in between, then commits once with {@code newState}; if it fails,
     * every change it made is rolled back and the failure rethrown.
     */
    <T> T rebuild(IndexState newState, Rebuild<T> rebuild);

    /** Gives up one reference; the last one closes the index. */
    void release();

    /** Something to do with a searcher that may throw {@link IOException}. */
    @FunctionalInterface
    interface SearcherWork<T> {
        /** Does it. */
        T apply(IndexSearcher searcher) throws IOException;
    }

    /** Something to do with {@link Changes}. */
    @FunctionalInterface
    interface ChangeWork<T> {
        /** Does it. */
        T apply(Changes changes) throws IOException;
    }

    /** A rebuild of the index, run alone: see {@link #rebuild}. */
    @FunctionalInterface
    interface Rebuild<T> {
        /** Rewrites documents with {@code writer}, reading them from {@code searcher}. */
        T apply(IndexWriter writer, IndexSearcher searcher) throws IOException;
    }

    /** The changes one {@link #write} may make, and the current entries they are based on. */
    interface Changes {
        /** The current entry of {@code id}, including the changes of earlier writes. */
        Optional<MemoryEntry> current(String id, String where) throws IOException;

        /** Replaces the document of {@code id} by {@code doc}, which holds {@code entry}. */
        void put(String id, Document doc, MemoryEntry entry) throws IOException;

        /** Deletes the document of {@code id}. */
        void delete(String id) throws IOException;

        /** Deletes every document of namespace {@code ns}; returns how many there were. */
        int deleteNamespace(String ns) throws IOException;
    }
}
