package dev.forge.memory.vector;

import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.Keys;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Reindexing;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.support.SearchText;
import dev.forge.memory.vector.internal.Documents;
import dev.forge.memory.vector.internal.EntryCodec;
import dev.forge.memory.vector.internal.IndexState;
import dev.forge.memory.vector.internal.ScopedIndexes;
import dev.forge.memory.vector.internal.VectorIndex;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.util.Bits;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A {@link VectorMemoryProvider}'s reindex (every vector of its indexes, the project's and the shared GLOBAL one,
 * rebuilt with the configured model) and its {@code doctor}.
 */
final class VectorMaintenance {

    private static final int REINDEX_BATCH = 64;

    private final ScopedIndexes indexes;
    private final EmbeddingModel model;
    private final SearchText text;
    private final Function<List<String>, List<float[]>> embed;

    VectorMaintenance(ScopedIndexes indexes, EmbeddingModel model, SearchText text,
            Function<List<String>, List<float[]>> embed) {
        this.indexes = indexes;
        this.model = model;
        this.text = text;
        this.embed = embed;
    }

    /**
     * Re-embeds every document of the project's index, then of the shared GLOBAL index, each in one rebuild committed
     * at its end: a failure rolls back the index being rebuilt (an index already rebuilt stays so).
     */
    Reindexing.ReindexResult reindex(Reindexing.Progress progress) {
        long started = System.nanoTime();
        long total = 0;
        for (VectorIndex index : indexes.all()) {
            total += index.read(searcher -> (long) searcher.getIndexReader().numDocs());
        }
        long all = total;
        progress.update(0, all);
        long done = 0;
        for (VectorIndex index : indexes.all()) {
            long before = done;
            done += index.rebuild(IndexState.of(model, text), (writer, searcher) -> reembedAll(index, writer, searcher, before, all, progress));
        }
        return new Reindexing.ReindexResult(done, model.fingerprint(), Duration.ofNanos(System.nanoTime() - started));
    }

    private long reembedAll(VectorIndex index, IndexWriter writer, org.apache.lucene.search.IndexSearcher searcher, long before,
            long total, Reindexing.Progress progress) throws IOException {
        IndexReader reader = searcher.getIndexReader();
        List<Document> batch = new ArrayList<>(REINDEX_BATCH);
        long done = 0;
        for (LeafReaderContext leaf : reader.leaves()) {
            Bits live = leaf.reader().getLiveDocs();
            StoredFields stored = leaf.reader().storedFields();
            for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
                if (live != null && !live.get(doc)) {
                    continue;
                }
                batch.add(stored.document(doc));
                if (batch.size() == REINDEX_BATCH) {
                    done += reembed(index, writer, batch);
                    progress.update(before + done, Math.max(total, before + done));
                }
            }
        }
        if (!batch.isEmpty()) {
            done += reembed(index, writer, batch);
            progress.update(before + done, Math.max(total, before + done));
        }
        return done;
    }

    /** Replaces each stored document of {@code batch} by one with a new vector; empties the batch. */
    private int reembed(VectorIndex index, IndexWriter writer, List<Document> batch) throws IOException {
        List<MemoryEntry> entries = new ArrayList<>(batch.size());
        for (Document doc : batch) {
            // A document that cannot be read stops the reindex, which then rolls back: nothing is dropped.
            entries.add(EntryCodec.decode(doc.get(Documents.ENTRY), index.directory() + " (namespace of document "
                    + Keys.abbreviate(String.valueOf(doc.get(Documents.NS))) + ")"));
        }
        List<float[]> vectors = embed.apply(entries.stream().map(text::text).toList());
        for (int i = 0; i < batch.size(); i++) {
            Document old = batch.get(i);
            MemoryEntry entry = entries.get(i);
            String ns = old.get(Documents.NS);
            writer.updateDocument(new Term(Documents.ID, Documents.id(ns, entry.key())),
                    Documents.document(entry, ns, old.get("project"), old.get("session"), text, vectors.get(i)));
        }
        int size = batch.size();
        batch.clear();
        return size;
    }

    /**
     * Checks each index (the model that made its vectors, the checksums of every segment file, that every stored
     * entry can be read) and lists the project's GLOBAL entries that could not be moved to the shared index.
     */
    List<StoreProblem> doctor() {
        List<StoreProblem> problems = new ArrayList<>();
        for (VectorIndex index : indexes.all()) {
            check(index, problems);
        }
        problems.addAll(LegacyGlobal.problems(indexes));
        return List.copyOf(problems);
    }

    private void check(VectorIndex index, List<StoreProblem> problems) {
        String location = index.directory().toString();
        IndexState state = index.state();
        if (!state.searchFields().equals(text)) {
            problems.add(new StoreProblem(location, VectorMemoryProvider.fieldsChanged(state, text)));
        }
        if (!state.serves(model)) {
            problems.add(new StoreProblem(location, "the vectors were made by the model of fingerprint '"
                    + state.describedFingerprint(model) + "', the configured model has '" + model.fingerprint()
                    + "'; semantic search is refused until you run: forge-memory reindex"));
        }
        index.read(searcher -> {
            for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
                String segment = location + " (segment " + leaf.ord + ")";
                try {
                    leaf.reader().checkIntegrity();
                } catch (IOException e) {
                    problems.add(new StoreProblem(segment, "its files are damaged (" + e.getMessage()
                            + "); restore the index from a backup, or move it away and re-import the memories"));
                    continue;
                }
                Bits live = leaf.reader().getLiveDocs();
                StoredFields stored = leaf.reader().storedFields();
                for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
                    if (live != null && !live.get(doc)) {
                        continue;
                    }
                    try {
                        EntryCodec.decode(stored.document(doc).get(Documents.ENTRY), segment);
                    } catch (CorruptEntryException e) {
                        problems.add(new StoreProblem(segment + " document " + doc, "the stored entry cannot be read; "
                                + "it is skipped by queries and searches. Restore the index from a backup"));
                    }
                }
            }
            return null;
        });
    }
}
