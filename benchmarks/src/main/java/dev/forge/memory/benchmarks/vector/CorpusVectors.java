package dev.forge.memory.benchmarks.vector;

import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.support.EmbeddingModels;
import dev.forge.memory.spi.ProviderConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The MiniLM vectors of the queries and the corpus, computed once and kept in a cache file so that the other trials
 * (each benchmark method is a trial, each in a fresh JVM) load them instead of embedding 50,000 texts again.
 *
 * <p>The cache lives in {@code $forge.bench.cache} (default {@code <tmp>/forge-bench-cache}); its name holds a
 * SHA-256 of the model's fingerprint and every text, so a changed corpus, size or model never reads stale vectors. It
 * also keeps what embedding them cost, measured when they were computed.
 *
 * @param fingerprint the fingerprint of the model that made the vectors
 * @param queries     one unit vector per query
 * @param corpus      one unit vector per corpus text
 * @param msPerText   wall-clock milliseconds per text of the embedding run that made them
 * @param threads     the model's {@code threads} in that run
 * @param cacheFile   the cache file they are kept in
 */
record CorpusVectors(String fingerprint, List<float[]> queries, List<float[]> corpus, double msPerText, int threads,
        Path cacheFile) {

    /** The system property naming the directory of the embedding cache. */
    static final String CACHE_PROPERTY = "forge.bench.cache";

    private static final Logger LOG = LoggerFactory.getLogger(CorpusVectors.class);
    private static final int BATCH = 256;
    private static final int MAGIC = 0x464d5631;

    CorpusVectors {
        queries = List.copyOf(queries);
        corpus = List.copyOf(corpus);
    }

    /** The MiniLM vectors of {@code texts}: from the cache when it holds them, else embedded now and cached. */
    static CorpusVectors of(WordNetSentences texts) {
        // the model's default: one inference per core, at most 4
        int threads = Math.min(Runtime.getRuntime().availableProcessors(), 4);
        try (EmbeddingModel model = EmbeddingModels.load().open("minilm",
                ProviderConfig.of(Map.of("threads", threads), "benchmarks", "embedding"))) {
            Path file = cacheDirectory().resolve("vectors-" + key(model.fingerprint(), texts) + ".bin");
            if (Files.isRegularFile(file)) {
                LOG.info("Reading {} cached vectors from {}", texts.queries().size() + texts.corpus().size(), file);
                return read(file, texts);
            }
            CorpusVectors vectors = embed(model, threads, texts, file);
            write(file, vectors);
            return vectors;
        } catch (IOException e) {
            throw new UncheckedIOException("The embedding cache cannot be read or written: " + e.getMessage(), e);
        }
    }

    private static Path cacheDirectory() throws IOException {
        String configured = System.getProperty(CACHE_PROPERTY);
        Path directory = configured == null || configured.isBlank()
                ? Path.of(System.getProperty("java.io.tmpdir"), "forge-bench-cache") : Path.of(configured);
        return Files.createDirectories(directory);
    }

    private static String key(String fingerprint, WordNetSentences texts) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(fingerprint.getBytes(StandardCharsets.UTF_8));
            for (List<String> part : List.of(texts.queries(), texts.corpus())) {
                digest.update((byte) 1);
                for (String text : part) {
                    digest.update(text.getBytes(StandardCharsets.UTF_8));
                    digest.update((byte) 0);
                }
            }
            return HexFormat.of().formatHex(digest.digest(), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static CorpusVectors embed(EmbeddingModel model, int threads, WordNetSentences texts, Path file) {
        int total = texts.queries().size() + texts.corpus().size();
        LOG.info("Embedding {} texts with {} ({} threads); this is timed as the embedding cost", total, model.fingerprint(), threads);
        long started = System.nanoTime();
        List<float[]> queries = embedAll(model, texts.queries());
        List<float[]> corpus = embedAll(model, texts.corpus());
        double msPerText = (System.nanoTime() - started) / 1e6 / total;
        LOG.info("Embedded {} texts at {} ms per text", total, String.format("%.2f", msPerText));
        return new CorpusVectors(model.fingerprint(), queries, corpus, msPerText, threads, file);
    }

    private static List<float[]> embedAll(EmbeddingModel model, List<String> texts) {
        List<float[]> vectors = new ArrayList<>(texts.size());
        for (int from = 0; from < texts.size(); from += BATCH) {
            vectors.addAll(model.embed(texts.subList(from, Math.min(texts.size(), from + BATCH))));
        }
        return vectors;
    }

    private static void write(Path file, CorpusVectors vectors) throws IOException {
        Path temporary = Files.createTempFile(file.getParent(), "vectors-", ".part");
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(temporary), 1 << 16))) {
            out.writeInt(MAGIC);
            out.writeUTF(vectors.fingerprint());
            out.writeDouble(vectors.msPerText());
            out.writeInt(vectors.threads());
            for (List<float[]> part : List.of(vectors.queries(), vectors.corpus())) {
                out.writeInt(part.size());
                for (float[] vector : part) {
                    out.writeInt(vector.length);
                    for (float component : vector) {
                        out.writeFloat(component);
                    }
                }
            }
        }
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static CorpusVectors read(Path file, WordNetSentences texts) throws IOException {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            if (in.readInt() != MAGIC) {
                throw new IOException(file + " is not an embedding cache; delete it");
            }
            String fingerprint = in.readUTF();
            double msPerText = in.readDouble();
            int threads = in.readInt();
            List<float[]> queries = readPart(in, texts.queries().size(), file);
            List<float[]> corpus = readPart(in, texts.corpus().size(), file);
            return new CorpusVectors(fingerprint, queries, corpus, msPerText, threads, file);
        }
    }

    private static List<float[]> readPart(DataInputStream in, int expected, Path file) throws IOException {
        int size = in.readInt();
        if (size != expected) {
            throw new IOException(file + " holds " + size + " vectors where " + expected + " are expected; delete it");
        }
        List<float[]> vectors = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            float[] vector = new float[in.readInt()];
            for (int j = 0; j < vector.length; j++) {
                vector[j] = in.readFloat();
            }
            vectors.add(vector);
        }
        return vectors;
    }
}
