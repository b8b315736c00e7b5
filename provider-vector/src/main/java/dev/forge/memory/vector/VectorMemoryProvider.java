package dev.forge.memory.vector;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Capability;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.Hit;
import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Reindexing;
import dev.forge.memory.Restoring;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.EntryRules;
import dev.forge.memory.support.EntryWrite;
import dev.forge.memory.Keys;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.support.SemanticScorer;
import dev.forge.memory.vector.internal.Documents;
import dev.forge.memory.vector.internal.EntryCodec;
import dev.forge.memory.vector.internal.IndexState;
import dev.forge.memory.vector.internal.SharedIndex;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.SimpleCollector;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.VectorUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code vector} provider: every memory of every project and session using one directory, in one Lucene index,
 * with BM25 keyword search, semantic search by the configured {@link EmbeddingModel}, and their fusion
 * ({@link SemanticScorer#fuse(SearchRequest, List, List, int, double)}). Every score is in (0, 1], and
 * {@code threshold} applies to it; a search's scopes and filter select candidates before the top hits are chosen.
 *
 * <p>Every {@code set}, {@code delete} and {@code clear} is committed (files synced) before it returns, and the next
 * read sees it. {@link Restoring#restore} keeps only the last version it is given (there is no history), in one
 * Lucene update: a failed or interrupted restore leaves the key as it was.
 *
 * <p>Safe for many threads; providers opened on one directory in one JVM share one index writer. Another process
 * opening the same directory fails with {@link BackendUnavailableException} while this one has it open.
 *
 * <p>The index records the fingerprint of the model that made its vectors; opening it with a model that does not
 * {@linkplain EmbeddingModel#recognises recognise} it fails with {@link IndexModelMismatchException} unless the context
 * is {@linkplain ProviderContext#openForReindex() opened for reindex}, after which {@link Reindexing#reindex} rebuilds
 * every vector. Graph, transactions and history are not offered.
 *
 * <p>Search modes and scores, index layout, reindex and settings: docs/providers/vector.md.
 */
public final class VectorMemoryProvider implements MemoryProvider {

    /** The name this provider is selected by. */
    public static final String NAME = "vector";

    static final Set<Capability> CAPABILITIES =
            Set.copyOf(EnumSet.of(Capability.KEYWORD_SEARCH, Capability.SEMANTIC_SEARCH, Capability.REINDEX,
                    Capability.RESTORE));

    private static final Logger LOG = LoggerFactory.getLogger(VectorMemoryProvider.class);
    private static final Comparator<Hit> RANKING = Comparator.comparingDouble(Hit::score).reversed()
            .thenComparing(h -> h.entry().ref());
    private static final int MIN_HYBRID_DEPTH = 100;
    private static final int REINDEX_BATCH = 64;

    private final ProviderContext context;
    private final VectorConfig config;
    private final EmbeddingModel model;
    private final SharedIndex index;
    private final Analyzer analyzer = Documents.analyzer();
    private final String modelSource;
    private final String modelField;
    private final Reindexing reindexing = this::reindex;
    private final Restoring restoring = this::restore;
    private final Object closeLock = new Object();
    private volatile boolean closed;

    private VectorMemoryProvider(ProviderContext context, VectorConfig config, EmbeddingModel model, SharedIndex index,
            String modelSource, String modelField) {
        this.context = context;
        this.config = config;
        this.model = model;
        this.index = index;
        this.modelSource = modelSource;
        this.modelField = modelField;
    }

    /**
     * Opens the index {@code config} names (creating it when missing) with its embedding model.
     *
     * @throws ConfigurationException       for an unknown model or bad model settings
     * @throws IndexModelMismatchException  if the index was built by a model of another fingerprint and the context is
     *                                      not opened for reindex
     * @throws BackendUnavailableException  if another process has the index open, or it cannot be opened
     * @throws CorruptEntryException        if the index files are damaged
     */
    public static VectorMemoryProvider open(ProviderContext context, VectorConfig config) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(config, "config");
        ProviderConfig raw = context.config();
        String field = raw.path() + ".embedding";
        EmbeddingModel model = config.openModel(raw);
        try {
            if (model.dimension() > Documents.MAX_DIMENSION) {
                throw new ConfigurationException(raw.source() + ": the embedding model '" + model.name() + "' makes vectors of "
                        + model.dimension() + " dimensions; the vector provider indexes at most " + Documents.MAX_DIMENSION
                        + ". Choose a smaller model or dimension.", raw.source(), field, null);
            }
            Path directory = context.resolve(config.path());
            SharedIndex index = SharedIndex.acquire(directory, () -> IndexState.of(model));
            IndexState state = index.adoptRecognised(model);
            if (!state.serves(model) && !context.openForReindex()) {
                index.release();
                throw new IndexModelMismatchException(NAME, index.directory().toString(), state.describedFingerprint(model),
                        model.fingerprint(), raw.source(), field);
            }
            return new VectorMemoryProvider(context, config, model, index, raw.source(), field);
        } catch (RuntimeException e) {
            model.close();
            throw e;
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The index directory (its real path). */
    public Path directory() {
        return index.directory();
    }

    /** The embedding model this provider embeds with. */
    public EmbeddingModel embeddingModel() {
        return model;
    }

    private void checkOpen() {
        if (closed) {
            throw new BackendUnavailableException("This vector provider (" + index.directory() + ") is closed; open a new one.");
        }
    }

    private String namespace(Scope scope) {
        return Documents.namespace(Objects.requireNonNull(scope, "scope"), context.projectId(), context.sessionId());
    }

    private Set<String> namespaces(Set<Scope> scopes) {
        Set<String> namespaces = new LinkedHashSet<>();
        scopes.forEach(scope -> namespaces.add(namespace(scope)));
        return namespaces;
    }

    private String where(String key, Scope scope) {
        return index.directory() + " (" + scope.id() + ":" + Keys.abbreviate(key) + ")";
    }

    // ------------------------------------------------------------------ core

    @Override
    public Optional<MemoryEntry> get(String key, Scope scope) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(scope, "scope");
        Keys.validate(key);
        checkOpen();
        String id = Documents.id(namespace(scope), key);
        return index.read(searcher -> find(searcher, id, where(key, scope)));
    }

    private static Optional<MemoryEntry> find(IndexSearcher searcher, String id, String where) throws IOException {
        TopDocs top = searcher.search(new TermQuery(new Term(Documents.ID, id)), 1);
        if (top.scoreDocs.length == 0) {
            return Optional.empty();
        }
        Document doc = searcher.storedFields().document(top.scoreDocs[0].doc);
        return Optional.of(EntryCodec.decode(doc.get(Documents.ENTRY), where));
    }

    @Override
    public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
        checkOpen();
        EntryWrite write = EntryWrite.validate(key, value, scope, tags, metadata, limits());
        String ns = namespace(scope);
        String id = Documents.id(ns, key);
        // The embedded text holds no version or time, so the (slow) model runs before the write lock is taken.
        MemoryEntry draft = write.toEntry(Optional.empty(), context.clock().instant());
        float[] vector = embed(List.of(SemanticScorer.embeddingText(draft))).get(0);
        return index.write(changes -> {
            checkWritable();
            Optional<MemoryEntry> previous = changes.current(id, where(key, scope));
            MemoryEntry entry = write.toEntry(previous, context.clock().instant());
            put(changes, ns, entry, vector);
            return entry;
        });
    }

    /** Under the write lock: replaces the key's document (if any) by that of {@code entry}, in one Lucene update. */
    private void put(SharedIndex.Changes changes, String ns, MemoryEntry entry, float[] vector) throws IOException {
        changes.put(Documents.id(ns, entry.key()), Documents.document(entry, ns, context.projectId(), context.sessionId(), vector), entry);
    }

    /** Always present: see {@link #restore}. */
    @Override
    public Optional<Restoring> restoring() {
        return Optional.of(restoring);
    }

    /**
     * Stores the last of {@code versions} as the key's only document, exactly as given (version, timestamps): without
     * history, the earlier versions are only checked. It is written like a {@code set}: embedded before the write lock
     * is taken, then one {@code updateDocument} (Lucene's atomic delete and add) under it, committed and refreshed
     * before this returns. A failure before the commit leaves the last commit, which holds the key as it was.
     */
    private MemoryEntry restore(List<MemoryEntry> versions) {
        checkOpen();
        List<MemoryEntry> chain = EntryRules.checkChain(versions, limits());
        MemoryEntry current = chain.get(chain.size() - 1);
        String ns = namespace(current.scope());
        float[] vector = embed(List.of(SemanticScorer.embeddingText(current))).get(0);
        return index.write(changes -> {
            // the same guard as set: a vector of this model must not enter an index of another model's vectors
            checkWritable();
            put(changes, ns, current, vector);
            return current;
        });
    }

    /** The unit vectors of {@code texts} ({@code null} for a text without words), checked against the model's dimension. */
    private List<float[]> embed(List<String> texts) {
        List<float[]> vectors = model.embed(texts);
        if (vectors.size() != texts.size()) {
            throw new BackendUnavailableException("The embedding model '" + model.name() + "' returned " + vectors.size()
                    + " vectors for " + texts.size() + " texts.");
        }
        List<float[]> units = new ArrayList<>(vectors.size());
        for (float[] vector : vectors) {
            if (vector.length != model.dimension()) {
                throw new BackendUnavailableException("The embedding model '" + model.name() + "' returned a vector of "
                        + vector.length + " components; it declares " + model.dimension() + ".");
            }
            units.add(Documents.unitOrNull(vector));
        }
        return units;
    }

    /**
     * Called under the write lock: a write embeds with this provider's model, so the index must record that model.
     * A provider opened for reindex marks the index incomplete with its model at its first write; any other
     * provider refuses to mix models.
     */
    private void checkWritable() {
        IndexState state = index.state();
        if (state.fingerprint().equals(model.fingerprint())) {
            return;
        }
        if (context.openForReindex()) {
            index.recordState(IndexState.of(model).withComplete(false));
            return;
        }
        throw new IndexModelMismatchException(NAME, index.directory().toString(), state.describedFingerprint(model),
                model.fingerprint(), modelSource, modelField);
    }

    @Override
    public boolean delete(String key, Scope scope) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(scope, "scope");
        Keys.validate(key);
        checkOpen();
        String id = Documents.id(namespace(scope), key);
        return index.write(changes -> {
            if (changes.current(id, where(key, scope)).isEmpty()) {
                return false;
            }
            changes.delete(id);
            return true;
        });
    }

    @Override
    public int clear(Scope scope) {
        Objects.requireNonNull(scope, "scope");
        checkOpen();
        String ns = namespace(scope);
        return index.write(changes -> changes.deleteNamespace(ns));
    }

    @Override
    public List<MemoryEntry> query(Query query) {
        Objects.requireNonNull(query, "query");
        checkOpen();
        org.apache.lucene.search.Query lucene = Documents.patternQuery(
                Documents.filterQuery(namespaces(query.scopes()), query.filter()), query.pattern());
        List<MemoryEntry> candidates = index.read(searcher -> decodeAll(searcher, matching(searcher, lucene)));
        return query.apply(candidates);
    }

    /** The global doc ids matching {@code query}, in index order. */
    private static List<Integer> matching(IndexSearcher searcher, org.apache.lucene.search.Query query) throws IOException {
        List<Integer> docs = new ArrayList<>();
        searcher.search(query, new SimpleCollector() {
            private int base;

            @Override
            protected void doSetNextReader(LeafReaderContext leaf) {
                base = leaf.docBase;
            }

            @Override
            public void collect(int doc) {
                docs.add(base + doc);
            }

            @Override
            public ScoreMode scoreMode() {
                return ScoreMode.COMPLETE_NO_SCORES;
            }
        });
        return docs;
    }

    /** The entries of {@code docs}; a document that cannot be read is logged and skipped (see {@link #doctor()}). */
    private List<MemoryEntry> decodeAll(IndexSearcher searcher, List<Integer> docs) throws IOException {
        StoredFields stored = searcher.storedFields();
        List<MemoryEntry> entries = new ArrayList<>(docs.size());
        for (int doc : docs) {
            decode(stored, doc).ifPresent(entries::add);
        }
        return entries;
    }

    private Optional<MemoryEntry> decode(StoredFields stored, int doc) throws IOException {
        try {
            return Optional.of(EntryCodec.decode(stored.document(doc).get(Documents.ENTRY), index.directory() + " (document " + doc + ")"));
        } catch (CorruptEntryException e) {
            LOG.warn("Skipping a damaged document of the vector index: {}", e.getMessage());
            return Optional.empty();
        }
    }

    // ------------------------------------------------------------------ search

    @Override
    public List<Hit> search(SearchRequest request) {
        Objects.requireNonNull(request, "request");
        checkOpen();
        switch (request.mode()) {
            case KEYWORD:
                return keyword(request, request.limit(), request.threshold());
            case SEMANTIC:
                requireVectors();
                return semantic(request, request.limit(), request.threshold());
            default:
                requireVectors();
                int depth = (int) Math.min(SearchRequest.MAX_LIMIT,
                        Math.max(MIN_HYBRID_DEPTH, (long) request.limit() * config.overfetch()));
                List<Hit> keyword = keyword(request, depth, 0.0);
                List<Hit> semantic = semantic(request, depth, 0.0);
                return SemanticScorer.fuse(request, keyword, semantic, config.rrfK(), config.keywordWeight());
        }
    }

    private void requireVectors() {
        IndexState state = index.state();
        if (!state.serves(model)) {
            throw new IndexModelMismatchException(NAME, index.directory().toString(), state.describedFingerprint(model),
                    model.fingerprint(), modelSource, modelField);
        }
    }

    private List<Hit> keyword(SearchRequest request, int limit, double threshold) {
        List<String> terms = Documents.terms(analyzer, request.text());
        if (terms.isEmpty()) {
            return List.of();
        }
        BooleanQuery.Builder builder = new BooleanQuery.Builder();
        for (String term : terms) {
            builder.add(new TermQuery(new Term(Documents.TEXT, term)), Occur.SHOULD);
        }
        builder.add(Documents.filterQuery(namespaces(request.scopes()), request.filter()), Occur.FILTER);
        builder.setMinimumNumberShouldMatch(1);
        BooleanQuery query = builder.build();
        return index.read(searcher -> {
            double best = bestBm25(searcher, terms);
            List<ScoreDoc> top = topWithTies(searcher, query, limit);
            List<Scored> scored = new ArrayList<>(top.size());
            for (ScoreDoc doc : top) {
                scored.add(new Scored(doc.doc, Math.min(1.0, doc.score / best)));
            }
            return hits(searcher, scored, limit, threshold);
        });
    }

    /**
     * The largest BM25 score {@code terms} can reach: Lucene's BM25 term score is idf times a saturating term
     * frequency below 1, so the sum of the terms' idf bounds it.
     */
    private static double bestBm25(IndexSearcher searcher, List<String> terms) throws IOException {
        IndexReader reader = searcher.getIndexReader();
        long docCount = Math.max(1, reader.getDocCount(Documents.TEXT));
        double sum = 0;
        for (String term : terms) {
            int docFreq = reader.docFreq(new Term(Documents.TEXT, term));
            sum += (float) Math.log(1 + (docCount - docFreq + 0.5D) / (docFreq + 0.5D));
        }
        return sum > 0 ? sum : 1;
    }

    /** The top {@code limit} docs and every doc tied with the last of them, so that ties can be ordered by key. */
    private static List<ScoreDoc> topWithTies(IndexSearcher searcher, org.apache.lucene.search.Query query, int limit)
            throws IOException {
        int n = limit;
        while (true) {
            ScoreDoc[] docs = searcher.search(query, n).scoreDocs;
            if (docs.length < n || docs[n - 1].score < docs[limit - 1].score || n >= Integer.MAX_VALUE / 2) {
                return List.of(docs);
            }
            n *= 2;
        }
    }

    /** A document and its score on the request's scale. */
    private record Scored(int doc, double score) {
    }

    /**
     * Hits of the scored docs that are above zero and at least {@code threshold}, best first, ties by key then scope,
     * at most {@code limit}: only the docs that can make the cut (the best {@code limit} and their ties) are read.
     */
    private List<Hit> hits(IndexSearcher searcher, List<Scored> scored, int limit, double threshold) throws IOException {
        List<Scored> kept = new ArrayList<>();
        for (Scored s : scored) {
            if (s.score() > 0 && s.score() >= threshold) {
                kept.add(s);
            }
        }
        kept.sort(Comparator.comparingDouble(Scored::score).reversed());
        int end = Math.min(limit, kept.size());
        while (end < kept.size() && kept.get(end).score() == kept.get(end - 1).score()) {
            end++;
        }
        StoredFields stored = searcher.storedFields();
        List<Hit> hits = new ArrayList<>(end);
        for (Scored s : kept.subList(0, end)) {
            Optional<MemoryEntry> entry = decode(stored, s.doc());
            entry.ifPresent(e -> hits.add(new Hit(e, Math.min(1.0, s.score()))));
        }
        hits.sort(RANKING);
        return hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : List.copyOf(hits);
    }

    private List<Hit> semantic(SearchRequest request, int limit, double threshold) {
        float[] query = embed(List.of(request.text())).get(0);
        if (query == null) {
            return List.of();
        }
        String field = Documents.vectorField(model.dimension());
        org.apache.lucene.search.Query filter = Documents.filterQuery(namespaces(request.scopes()), request.filter());
        return index.read(searcher -> {
            int candidates = searcher.count(filter);
            if (candidates == 0) {
                return List.of();
            }
            List<Scored> scored = candidates <= config.exactLimit()
                    ? exact(searcher, filter, field, query)
                    : nearest(searcher, filter, field, query, (int) Math.min(candidates, Math.max(limit, (long) limit * config.overfetch())));
            return hits(searcher, scored, limit, threshold);
        });
    }

    /** The cosine of every candidate that has a vector: no graph, no approximation. */
    private static List<Scored> exact(IndexSearcher searcher, org.apache.lucene.search.Query filter, String field,
            float[] query) throws IOException {
        Weight weight = searcher.createWeight(searcher.rewrite(filter), ScoreMode.COMPLETE_NO_SCORES, 1f);
        List<Scored> scored = new ArrayList<>();
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            FloatVectorValues vectors = leaf.reader().getFloatVectorValues(field);
            Scorer scorer = vectors == null ? null : weight.scorer(leaf);
            if (scorer == null) {
                continue;
            }
            Bits live = leaf.reader().getLiveDocs();
            DocIdSetIterator docs = scorer.iterator();
            for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
                if (live != null && !live.get(doc)) {
                    continue;
                }
                int at = vectors.docID() < doc ? vectors.advance(doc) : vectors.docID();
                if (at == DocIdSetIterator.NO_MORE_DOCS) {
                    break;
                }
                if (at == doc) {
                    scored.add(new Scored(leaf.docBase + doc, VectorUtil.dotProduct(query, vectors.vectorValue())));
                }
            }
        }
        return scored;
    }

    /** The {@code k} nearest candidates through the HNSW graph, the filter applied while the graph is searched. */
    private static List<Scored> nearest(IndexSearcher searcher, org.apache.lucene.search.Query filter, String field,
            float[] query, int k) throws IOException {
        TopDocs top = searcher.search(new KnnFloatVectorQuery(field, query, k, filter), k);
        List<Scored> scored = new ArrayList<>(top.scoreDocs.length);
        for (ScoreDoc doc : top.scoreDocs) {
            // Lucene scores a dot product of unit vectors as (1 + cosine) / 2.
            scored.add(new Scored(doc.doc, 2.0 * doc.score - 1.0));
        }
        return scored;
    }

    // ------------------------------------------------------------------ capabilities, reindex, doctor

    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    /** Always present: rebuilds every vector (and the keyword index) with the configured model. */
    @Override
    public Optional<Reindexing> reindexing() {
        return Optional.of(reindexing);
    }

    private Reindexing.ReindexResult reindex(Reindexing.Progress progress) {
        Objects.requireNonNull(progress, "progress");
        checkOpen();
        long started = System.nanoTime();
        long entries = index.rebuild(IndexState.of(model), (writer, searcher) -> {
            IndexReader reader = searcher.getIndexReader();
            long total = reader.numDocs();
            progress.update(0, total);
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
                        done += reembed(writer, batch);
                        progress.update(done, total);
                    }
                }
            }
            if (!batch.isEmpty()) {
                done += reembed(writer, batch);
                progress.update(done, total);
            }
            return done;
        });
        return new Reindexing.ReindexResult(entries, model.fingerprint(), Duration.ofNanos(System.nanoTime() - started));
    }

    /** Replaces each stored document of {@code batch} by one with a new vector; empties the batch. */
    private int reembed(org.apache.lucene.index.IndexWriter writer, List<Document> batch) throws IOException {
        List<MemoryEntry> entries = new ArrayList<>(batch.size());
        for (Document doc : batch) {
            // A document that cannot be read stops the reindex, which then rolls back: nothing is dropped.
            entries.add(EntryCodec.decode(doc.get(Documents.ENTRY), index.directory() + " (namespace of document "
                    + Keys.abbreviate(String.valueOf(doc.get(Documents.NS))) + ")"));
        }
        List<float[]> vectors = embed(entries.stream().map(SemanticScorer::embeddingText).toList());
        for (int i = 0; i < batch.size(); i++) {
            Document old = batch.get(i);
            MemoryEntry entry = entries.get(i);
            String ns = old.get(Documents.NS);
            writer.updateDocument(new Term(Documents.ID, Documents.id(ns, entry.key())),
                    Documents.document(entry, ns, old.get("project"), old.get("session"), vectors.get(i)));
        }
        int size = batch.size();
        batch.clear();
        return size;
    }

    /**
     * Checks the index: the model that made its vectors, the checksums of every segment file, and that every stored
     * entry can be read.
     */
    @Override
    public List<StoreProblem> doctor() {
        checkOpen();
        List<StoreProblem> problems = new ArrayList<>();
        String location = index.directory().toString();
        IndexState state = index.state();
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
        return List.copyOf(problems);
    }

    /** Releases this provider's share of the index (the last provider on it closes the writer) and its model. */
    @Override
    public void close() {
        synchronized (closeLock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            index.release();
        } finally {
            model.close();
        }
    }

    @Override
    public String toString() {
        return "VectorMemoryProvider[" + index.directory() + ", model=" + model.fingerprint() + "]";
    }
}
