package dev.forge.memory.benchmarks.vector;

import dev.forge.memory.Hit;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.benchmarks.Extras;
import dev.forge.memory.benchmarks.Measure;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import dev.forge.memory.vector.VectorConfig;
import dev.forge.memory.vector.VectorMemoryProvider;
import dev.forge.memory.vector.VectorMemoryProviderFactory;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingMatch;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Semantic search of the vector provider on MiniLM embeddings of real English text (WordNet 3.1's example sentences,
 * then its definitions: see {@link WordNetSentences}), top 10.
 *
 * <ul>
 *   <li>{@code search}: ours is {@link MemoryProvider#search} in SEMANTIC mode (every scope, limit 10) with a query
 *       text whose MiniLM vector was computed in the setup ({@link PrecomputedEmbeddingModelFactory}: the API takes a
 *       text, not a vector); the baseline is raw Lucene on the same index directory, a {@link KnnFloatVectorQuery} of
 *       the same query vector on the same field with the same k as ours asks HNSW for ({@code 10 * overfetch}, 40),
 *       reading the stored entry of the best 10. Target 0.8.</li>
 *   <li>{@code langchain4j}: ours as in {@code search}; the baseline is langchain4j's
 *       {@link InMemoryEmbeddingStore#search} (exact, brute-force cosine) of the same vectors, 10 results. Target 10,
 *       meant at the full size (50,000); both recalls are recorded.</li>
 *   <li>Extras, recorded once per run (by the trial of {@code search_ours}): {@code vector.recall_at_10} (ours against
 *       exact cosine search over every corpus vector, target 0.95), {@code vector.recall_at_10_raw_lucene},
 *       {@code vector.recall_at_10_langchain4j} and {@code vector.embedding_cost} (ms per text of MiniLM).</li>
 * </ul>
 *
 * <p>The index is filled once through the provider's {@code set} (32 writers, group commits) and kept beside the
 * embedding cache ({@link CorpusVectors}); each trial copies it to a fresh directory, opens the provider on it and raw
 * Lucene on the same directory. With a corpus of at most {@code exact_limit} (10,000) entries the provider scores every candidate exactly instead
 * of through HNSW: a {@code --quick} run measures that path, a full run the HNSW one.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class VectorSearchBench {

    private static final Logger LOG = LoggerFactory.getLogger(VectorSearchBench.class);
    private static final int LIMIT = 10;
    private static final int QUERIES = 200;
    private static final String PROJECT = "bench";
    private static final int WRITERS = 32;
    private static final String INDEX = "vectors";

    /** Texts embedded and indexed (WordNet example sentences first, then definitions). */
    @Param("50000")
    public int corpus;

    private Path directory;
    private VectorMemoryProvider provider;
    private DirectoryReader reader;
    private IndexSearcher searcher;
    private String field;
    private int k;
    private InMemoryEmbeddingStore<TextSegment> store;
    private List<String> queryTexts;
    private List<float[]> queryVectors;
    private int next;

    /** Embeds (or loads the cached vectors of) the texts, fills the provider, opens raw Lucene and the store. */
    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) throws IOException {
        WordNetSentences texts = WordNetSentences.load(QUERIES, corpus);
        CorpusVectors vectors = CorpusVectors.of(texts);
        queryTexts = texts.queries();
        queryVectors = vectors.queries();
        PrecomputedEmbeddingModelFactory.clear();
        for (int i = 0; i < QUERIES; i++) {
            PrecomputedEmbeddingModelFactory.register(vectors.fingerprint(), queryTexts.get(i), queryVectors.get(i));
        }
        for (int i = 0; i < corpus; i++) {
            // what the provider embeds for an entry without tags: key, an empty tag line, value
            PrecomputedEmbeddingModelFactory.register(vectors.fingerprint(), key(i) + "\n\n" + texts.corpus().get(i),
                    vectors.corpus().get(i));
        }
        directory = Files.createTempDirectory("forge-bench-vector-");
        copy(builtIndex(vectors.cacheFile(), texts.corpus()), directory.resolve(INDEX));
        provider = open(directory);
        field = "vector_" + vectors.queries().get(0).length;
        k = LIMIT * VectorConfig.DEFAULT_OVERFETCH;
        Directory lucene = FSDirectory.open(provider.directory());
        reader = DirectoryReader.open(lucene);
        searcher = new IndexSearcher(reader);
        store = new InMemoryEmbeddingStore<>();
        List<String> ids = new ArrayList<>(corpus);
        List<Embedding> embeddings = new ArrayList<>(corpus);
        List<TextSegment> segments = new ArrayList<>(corpus);
        for (int i = 0; i < corpus; i++) {
            ids.add(key(i));
            embeddings.add(Embedding.from(vectors.corpus().get(i)));
            segments.add(TextSegment.from(texts.corpus().get(i)));
        }
        store.addAll(ids, embeddings, segments);
        if (params.getBenchmark().endsWith(".search_ours")) {
            recordExtras(texts, vectors);
        }
    }

    /**
     * The directory of an index holding every corpus text, built once through the provider (its {@code set}s) beside
     * the embedding cache and copied by each trial: filling it commits each write (group commits) and takes minutes
     * at 50,000 entries.
     */
    private Path builtIndex(Path cacheFile, List<String> texts) throws IOException {
        Path built = cacheFile.resolveSibling(cacheFile.getFileName().toString().replace(".bin", "-index"));
        if (Files.isDirectory(built)) {
            LOG.info("Copying the index built earlier from {}", built);
            return built;
        }
        Path building = Files.createTempDirectory(cacheFile.getParent(), "index-");
        try (VectorMemoryProvider filling = open(building)) {
            fill(filling, texts);
        }
        Files.move(building.resolve(INDEX), built, StandardCopyOption.ATOMIC_MOVE);
        delete(building);
        return built;
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : files.toList()) {
                if (!file.getFileName().toString().equals("write.lock")) {
                    Files.copy(file, to.resolve(file.getFileName()));
                }
            }
        }
    }

    private static void delete(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    private static String key(int i) {
        return String.format("s%06d", i);
    }

    private static VectorMemoryProvider open(Path base) {
        Map<String, Object> config = Map.of("path", INDEX, "embedding", Map.of("model", PrecomputedEmbeddingModelFactory.NAME));
        ProviderContext context = ProviderContext.builder()
                .projectId(PROJECT)
                .sessionId("session")
                .baseDirectory(base)
                .forgeHome(base.resolve("forge-home"))
                .registry(ProviderRegistry.of())
                .config(ProviderConfig.of(config, "benchmarks", "memory.config"))
                .build();
        return (VectorMemoryProvider) new VectorMemoryProviderFactory().open(context);
    }

    /** Writes every text as a PROJECT entry on several threads, so that group commits make many writes durable at once. */
    private void fill(MemoryProvider target, List<String> texts) {
        long started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        try {
            List<Future<?>> writes = new ArrayList<>(texts.size());
            for (int i = 0; i < texts.size(); i++) {
                int n = i;
                writes.add(pool.submit(() -> target.set(key(n), texts.get(n), dev.forge.memory.Scope.PROJECT)));
            }
            for (Future<?> write : writes) {
                write.get();
            }
        } catch (Exception e) {
            throw new IllegalStateException("Filling the vector index failed: " + e.getMessage(), e);
        } finally {
            pool.shutdownNow();
        }
        LOG.info("Indexed {} entries in {} s", texts.size(), String.format("%.1f", (System.nanoTime() - started) / 1e9));
    }

    /** Closes everything and deletes the store's directory. */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        if (reader != null) {
            reader.close();
        }
        if (provider != null) {
            provider.close();
        }
        PrecomputedEmbeddingModelFactory.clear();
        if (directory != null) {
            delete(directory);
        }
    }

    private int nextQuery() {
        int query = next;
        next = (next + 1) % QUERIES;
        return query;
    }

    // ------------------------------------------------------------------ measures

    /** Ours: SEMANTIC search of every scope, top 10, by query text (its vector precomputed). */
    @Benchmark
    @Measure(value = "vector semantic search (top 10) vs raw Lucene KnnFloatVectorQuery, same index", target = 0.8)
    public List<Hit> search_ours() {
        return ours(nextQuery());
    }

    /** Raw Lucene: kNN of the same vector with the same k on the same directory, the stored entry of the best 10. */
    @Benchmark
    public void search_baseline(Blackhole blackhole) throws IOException {
        TopDocs top = searcher.search(new KnnFloatVectorQuery(field, queryVectors.get(nextQuery()), k), k);
        int end = Math.min(LIMIT, top.scoreDocs.length);
        StoredFields stored = searcher.storedFields();
        for (int i = 0; i < end; i++) {
            blackhole.consume(stored.document(top.scoreDocs[i].doc).get("entry"));
        }
    }

    /** Ours, as in {@link #search_ours}, paired with langchain4j's in-memory store. */
    @Benchmark
    @Measure(value = "vector semantic search (top 10) vs langchain4j InMemoryEmbeddingStore, 50k entries", target = 10)
    public List<Hit> langchain4j_ours() {
        return ours(nextQuery());
    }

    /** langchain4j: {@code InMemoryEmbeddingStore.search} of the same vector, 10 results. */
    @Benchmark
    public List<EmbeddingMatch<TextSegment>> langchain4j_baseline() {
        return store.search(EmbeddingSearchRequest.builder()
                .queryEmbedding(Embedding.from(queryVectors.get(nextQuery())))
                .maxResults(LIMIT)
                .build()).matches();
    }

    private List<Hit> ours(int query) {
        return provider.search(SearchRequest.builder(queryTexts.get(query)).mode(SearchMode.SEMANTIC).limit(LIMIT).build());
    }

    // ------------------------------------------------------------------ extras

    /** Recall@10 of ours, raw Lucene and langchain4j against exact cosine search, and the embedding cost. */
    private void recordExtras(WordNetSentences texts, CorpusVectors vectors) throws IOException {
        double ours = 0;
        double raw = 0;
        double langchain4j = 0;
        for (int q = 0; q < QUERIES; q++) {
            Set<String> exact = exactTop(vectors.corpus(), queryVectors.get(q));
            ours += overlap(exact, ours(q).stream().map(hit -> hit.entry().key()).toList());
            List<String> rawKeys = new ArrayList<>();
            TopDocs top = searcher.search(new KnnFloatVectorQuery(field, queryVectors.get(q), k), k);
            for (ScoreDoc doc : top.scoreDocs) {
                if (rawKeys.size() < LIMIT) {
                    String entry = searcher.storedFields().document(doc.doc).get("entry");
                    rawKeys.add(keyOf(entry));
                }
            }
            raw += overlap(exact, rawKeys);
            langchain4j += overlap(exact, store.search(EmbeddingSearchRequest.builder()
                    .queryEmbedding(Embedding.from(queryVectors.get(q))).maxResults(LIMIT).build())
                    .matches().stream().map(EmbeddingMatch::embeddingId).toList());
        }
        ours /= QUERIES;
        raw /= QUERIES;
        langchain4j /= QUERIES;
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("corpus", corpus);
        params.put("queries", QUERIES);
        params.put("k", LIMIT);
        params.put("example_sentences", texts.examples());
        params.put("definitions", corpus - texts.examples());
        params.put("model", vectors.fingerprint());
        params.put("path", corpus <= VectorConfig.DEFAULT_EXACT_LIMIT ? "exact (corpus <= exact_limit)" : "hnsw, k=" + k);
        LOG.info("recall@10 against exact search: ours {}, raw Lucene (k={}) {}, langchain4j {}", ours, k, raw, langchain4j);
        Extras.record("vector.recall_at_10", ours, 1.0, "recall", ours, 0.95, params);
        Extras.record("vector.recall_at_10_raw_lucene", ours, raw, "recall", raw == 0 ? 0 : ours / raw, 0, params);
        Extras.record("vector.recall_at_10_langchain4j", ours, langchain4j, "recall", langchain4j == 0 ? 0 : ours / langchain4j, 0, params);
        Map<String, Object> cost = new LinkedHashMap<>();
        cost.put("texts", QUERIES + corpus);
        cost.put("model", vectors.fingerprint());
        cost.put("threads", vectors.threads());
        cost.put("cores", Runtime.getRuntime().availableProcessors());
        cost.put("avg_chars", Stream.concat(texts.queries().stream(), texts.corpus().stream()).mapToInt(String::length).average().orElse(0));
        cost.put("note", "measured when the vectors were computed (then cached for the other trials); not a ratio");
        Extras.record("vector.embedding_cost", vectors.msPerText(), 0, "ms/text", 0, 0, cost);
    }

    private static String keyOf(String storedEntry) {
        // the stored entry is the JSON of a MemoryEntry; its key is a "key" field
        int at = storedEntry.indexOf("\"key\":\"");
        return storedEntry.substring(at + 7, storedEntry.indexOf('"', at + 7));
    }

    /** The keys of the 10 corpus vectors of highest cosine (dot product of unit vectors) with {@code query}. */
    private static Set<String> exactTop(List<float[]> corpus, float[] query) {
        Integer[] order = new Integer[corpus.size()];
        double[] scores = new double[corpus.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
            scores[i] = org.apache.lucene.util.VectorUtil.dotProduct(query, corpus.get(i));
        }
        java.util.Arrays.sort(order, (a, b) -> Double.compare(scores[b], scores[a]));
        Set<String> top = new HashSet<>();
        for (int i = 0; i < Math.min(LIMIT, order.length); i++) {
            top.add(key(order[i]));
        }
        return top;
    }

    private static double overlap(Set<String> exact, List<String> found) {
        return found.stream().filter(exact::contains).count() / (double) exact.size();
    }
}
