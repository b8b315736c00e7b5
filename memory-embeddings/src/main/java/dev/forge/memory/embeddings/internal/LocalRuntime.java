package dev.forge.memory.embeddings.internal;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtLoggingLevel;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.MemoryException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One loaded local model (all-MiniLM-L6-v2, bge-small-en-v1.5): an ONNX session and a tokenizer, shared JVM-wide by
 * every open model with the same {@link Key} and closed when the last of them lets go. Thread-safe: ONNX sessions and the tokenizer may be used by
 * many threads at once.
 *
 * <p>Each inference runs on one thread: for chat-sized texts ONNX's intra-op threads cost more than they give, and
 * running several texts at once scales with cores. A call with many texts runs them on the calling thread and up to
 * {@code threads - 1} workers of this runtime, which idle out after a while and stop when the runtime is closed.
 */
final class LocalRuntime {

    /** The settings that need a session of their own. */
    record Key(LocalModelSpec spec, int threads, int maxTokens) {
    }

    static final int DIMENSION = LocalModelSpec.DIMENSION;

    private static final Logger LOG = LoggerFactory.getLogger(LocalRuntime.class);
    /** Guarded by itself. */
    private static final Map<Key, LocalRuntime> SHARED = new HashMap<>();

    private final Key key;
    private final OrtEnvironment environment;
    private final OrtSession.SessionOptions options;
    private final OrtSession session;
    private final HuggingFaceTokenizer tokenizer;
    private final boolean takesTokenTypes;
    private final String output;
    /** Helps the calling thread with calls of many texts; null with one thread. */
    private final ThreadPoolExecutor workers;
    /** Guarded by {@link #SHARED}. */
    private int references;

    private LocalRuntime(Key key, OrtEnvironment environment, OrtSession.SessionOptions options, OrtSession session,
                          HuggingFaceTokenizer tokenizer) throws OrtException {
        this.key = key;
        this.environment = environment;
        this.options = options;
        this.session = session;
        this.tokenizer = tokenizer;
        if (key.threads() > 1) {
            AtomicInteger number = new AtomicInteger();
            this.workers = new ThreadPoolExecutor(key.threads() - 1, key.threads() - 1, 30, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), task -> {
                        Thread thread = new Thread(task, "forge-" + key.spec().name() + "-" + number.incrementAndGet());
                        thread.setDaemon(true);
                        return thread;
                    });
            this.workers.allowCoreThreadTimeOut(true);
        } else {
            this.workers = null;
        }
        Set<String> inputs = session.getInputNames();
        if (!inputs.containsAll(List.of("input_ids", "attention_mask"))) {
            throw new IllegalStateException("The model takes " + inputs + ", not input_ids and attention_mask");
        }
        this.takesTokenTypes = inputs.contains("token_type_ids");
        Set<String> outputs = session.getOutputNames();
        this.output = outputs.contains("last_hidden_state") ? "last_hidden_state" : outputs.iterator().next();
        TensorInfo info = (TensorInfo) session.getOutputInfo().get(output).getInfo();
        long[] shape = info.getShape();
        if (shape.length != 3 || shape[2] != DIMENSION) {
            throw new IllegalStateException("The model's output " + output + " has shape " + Arrays.toString(shape)
                    + ", not [batch, tokens, " + DIMENSION + "]");
        }
    }

    /** The shared runtime for {@code key}, loaded if no one holds it; the caller must {@link #release()} it once. */
    static LocalRuntime acquire(Key key) {
        synchronized (SHARED) {
            LocalRuntime runtime = SHARED.get(key);
            if (runtime == null) {
                runtime = load(key);
                SHARED.put(key, runtime);
            }
            runtime.references++;
            return runtime;
        }
    }

    /** How many runtimes are loaded now; for tests. */
    static int loaded() {
        synchronized (SHARED) {
            return SHARED.size();
        }
    }

    /** Lets go of the runtime; the last holder closes it. The caller must not be running inferences on it. */
    void release() {
        synchronized (SHARED) {
            if (--references > 0) {
                return;
            }
            SHARED.remove(key);
        }
        closeQuietly();
    }

    Key key() {
        return key;
    }

    private static LocalRuntime load(Key key) {
        long start = System.nanoTime();
        LocalModelSpec spec = key.spec();
        byte[] model = ModelFiles.read(spec, spec.modelFile());
        byte[] tokenizerJson = ModelFiles.read(spec, spec.tokenizerFile());
        HuggingFaceTokenizer tokenizer = null;
        OrtSession.SessionOptions options = null;
        OrtSession session = null;
        try {
            tokenizer = HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(tokenizerJson), Map.of(
                    // The file asks for padding to 128 and cutting at 128; we pad per batch and cut at max_tokens.
                    "padding", "false",
                    "truncation", "true",
                    "maxLength", Integer.toString(key.maxTokens()),
                    "modelMaxLength", "512",
                    "addSpecialTokens", "true"));
            OrtEnvironment environment = OrtEnvironment.getEnvironment(OrtLoggingLevel.ORT_LOGGING_LEVEL_ERROR, "forge-memory");
            options = new OrtSession.SessionOptions();
            options.setIntraOpNumThreads(1);
            options.setInterOpNumThreads(1);
            options.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            options.setSessionLogLevel(OrtLoggingLevel.ORT_LOGGING_LEVEL_ERROR);
            session = environment.createSession(model, options);
            LocalRuntime runtime = new LocalRuntime(key, environment, options, session, tokenizer);
            LOG.debug("Loaded {} ({} threads, {} tokens) in {} ms", spec.label(), key.threads(), key.maxTokens(),
                    (System.nanoTime() - start) / 1_000_000);
            return runtime;
        } catch (OrtException | IOException | RuntimeException | LinkageError e) {
            closeAll(session, options, tokenizer);
            if (e instanceof MemoryException memoryException) {
                throw memoryException;
            }
            throw new BackendUnavailableException("The " + spec.name() + " model cannot run on this machine ("
                    + System.getProperty("os.name") + ", " + System.getProperty("os.arch") + "): " + e
                    + ". Its ONNX runtime and tokenizer ship native libraries for Linux (x86-64, arm64), macOS (arm64) "
                    + "and Windows (x86-64); elsewhere choose another embedding model (hashing, openai).", e);
        }
    }

    /**
     * The unit vectors of {@code texts}, in order; texts of similar length are run together, {@code batchSize} at a
     * time, so that little padding is computed, and up to {@code threads} batches at once.
     */
    List<float[]> embed(List<String> texts, int batchSize) {
        int count = texts.size();
        long[][] ids = new long[count][];
        long[][] types = new long[count][];
        for (int i = 0; i < count; i++) {
            Encoding encoding = tokenizer.encode(Objects.requireNonNull(texts.get(i), "text"));
            ids[i] = encoding.getIds();
            types[i] = encoding.getTypeIds();
        }
        Integer[] order = new Integer[count];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, Comparator.comparingInt(i -> ids[i].length));
        float[][] vectors = new float[count][];
        int batches = (count + batchSize - 1) / batchSize;
        AtomicInteger next = new AtomicInteger();
        Runnable drain = () -> {
            for (int b = next.getAndIncrement(); b < batches; b = next.getAndIncrement()) {
                int from = b * batchSize;
                int to = Math.min(count, from + batchSize);
                try {
                    run(Arrays.asList(order).subList(from, to), ids, types, vectors);
                } catch (OrtException e) {
                    throw new BackendUnavailableException("The " + key.spec().name() + " model failed to embed " + (to - from)
                            + " texts: " + e.getMessage(), e);
                }
            }
        };
        List<Future<?>> helpers = new ArrayList<>();
        if (workers != null) {
            for (int i = 0; i < Math.min(workers.getMaximumPoolSize(), batches - 1); i++) {
                helpers.add(workers.submit(drain));
            }
        }
        RuntimeException failure = null;
        try {
            drain.run();
        } catch (RuntimeException e) {
            failure = e;
        }
        boolean interrupted = false;
        for (Future<?> helper : helpers) {
            while (true) {
                try {
                    helper.get();
                    break;
                } catch (InterruptedException e) {
                    // Finish waiting: the batches are short and the model must not close under them.
                    interrupted = true;
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause() instanceof RuntimeException r ? r
                                : new BackendUnavailableException("The " + key.spec().name() + " model failed: " + e.getCause(), e.getCause());
                    }
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failure != null) {
            throw failure;
        }
        return new ArrayList<>(Arrays.asList(vectors));
    }

    private void run(List<Integer> rows, long[][] ids, long[][] types, float[][] vectors) throws OrtException {
        int batch = rows.size();
        int length = 0;
        for (int row : rows) {
            length = Math.max(length, ids[row].length);
        }
        long[] inputIds = new long[batch * length];
        long[] mask = new long[batch * length];
        long[] typeIds = new long[batch * length];
        for (int b = 0; b < batch; b++) {
            long[] tokens = ids[rows.get(b)];
            System.arraycopy(tokens, 0, inputIds, b * length, tokens.length);
            Arrays.fill(mask, b * length, b * length + tokens.length, 1L);
            System.arraycopy(types[rows.get(b)], 0, typeIds, b * length, tokens.length);
        }
        long[] shape = {batch, length};
        try (OnnxTensor idTensor = OnnxTensor.createTensor(environment, LongBuffer.wrap(inputIds), shape);
             OnnxTensor maskTensor = OnnxTensor.createTensor(environment, LongBuffer.wrap(mask), shape);
             OnnxTensor typeTensor = OnnxTensor.createTensor(environment, LongBuffer.wrap(typeIds), shape)) {
            Map<String, OnnxTensor> inputs = new HashMap<>();
            inputs.put("input_ids", idTensor);
            inputs.put("attention_mask", maskTensor);
            if (takesTokenTypes) {
                inputs.put("token_type_ids", typeTensor);
            }
            try (OrtSession.Result result = session.run(inputs, Set.of(output))) {
                FloatBuffer hidden = ((OnnxTensor) result.get(0)).getFloatBuffer();
                for (int b = 0; b < batch; b++) {
                    vectors[rows.get(b)] = pooled(hidden, b, length, ids[rows.get(b)].length);
                }
            }
        }
    }

    /**
     * The vector of row {@code b}, scaled to unit length: the mean of its token vectors over its real (unpadded)
     * tokens, or with CLS pooling the vector of its first token.
     */
    private float[] pooled(FloatBuffer hidden, int b, int length, int tokens) {
        if (key.spec().pooling() == LocalModelSpec.Pooling.CLS) {
            tokens = 1;
        }
        double[] sum = new double[DIMENSION];
        for (int t = 0; t < tokens; t++) {
            int base = (b * length + t) * DIMENSION;
            for (int d = 0; d < DIMENSION; d++) {
                sum[d] += hidden.get(base + d);
            }
        }
        double norm = 0;
        for (int d = 0; d < DIMENSION; d++) {
            sum[d] /= tokens;
            norm += sum[d] * sum[d];
        }
        norm = Math.sqrt(norm);
        float[] vector = new float[DIMENSION];
        if (norm > 0) {
            for (int d = 0; d < DIMENSION; d++) {
                vector[d] = (float) (sum[d] / norm);
            }
        }
        return vector;
    }

    private void closeQuietly() {
        if (workers != null) {
            workers.shutdownNow();
            try {
                if (!workers.awaitTermination(10, TimeUnit.SECONDS)) {
                    LOG.warn("{} worker threads did not stop within 10 s", key.spec().name());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        closeAll(session, options, tokenizer);
        LOG.debug("Closed {} ({} threads, {} tokens)", key.spec().label(), key.threads(), key.maxTokens());
    }

    private static void closeAll(OrtSession session, OrtSession.SessionOptions options, HuggingFaceTokenizer tokenizer) {
        if (session != null) {
            try {
                session.close();
            } catch (OrtException e) {
                LOG.warn("Closing an ONNX session of a local embedding model failed: {}", e.toString());
            }
        }
        if (options != null) {
            options.close();
        }
        if (tokenizer != null) {
            tokenizer.close();
        }
    }
}
