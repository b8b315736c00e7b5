package dev.forge.memory.embeddings.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.support.QueryEmbedding;
import java.util.List;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * An open local model ({@code minilm}, {@code bge-small}, {@code e5-small}): its settings and fingerprint, and a hold on a shared
 * {@link LocalRuntime} taken when the first text is embedded, so that a store that only reads never loads the ONNX
 * session and tokenizer. Embedding takes a read lock and closing the write lock, so a runtime is never closed under a
 * running inference. A search query is embedded with the model's query instruction put before it (none for
 * {@code minilm}), a stored text with the model's passage prefix (only {@code e5-small} has one).
 */
public final class LocalModel implements QueryEmbedding {

    /** The property that keeps DJL from going to the network for its native library or for models. */
    static final String DJL_OFFLINE = "ai.djl.offline";

    private final LocalSettings settings;
    private final LocalRuntime.Key key;
    private final String fingerprint;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Object loading = new Object();
    /** Null until the first text is embedded; set once, under {@link #loading}. */
    private volatile LocalRuntime runtime;
    /** Guarded by the write lock. */
    private boolean closed;

    private LocalModel(LocalSettings settings) {
        this.settings = settings;
        this.key = new LocalRuntime.Key(settings.spec(), settings.threads(), settings.maxTokens());
        LocalModelSpec spec = settings.spec();
        ModelFiles.Identity identity = ModelFiles.identity(spec);
        this.fingerprint = String.join(":", spec.name(), spec.label(), identity.artifactVersion(),
                "sha256-" + identity.modelSha256(), "max" + settings.maxTokens(), spec.pooling().label(), "l2");
    }

    /**
     * Opens the model with {@code settings}: its fingerprint is worked out from the model file (once per JVM), and the
     * model itself is loaded when the first text is embedded, unless an open model in this JVM already has it loaded
     * with the same threads and token limit.
     *
     * @throws dev.forge.memory.ConfigurationException if the model's jar is not on the class path
     */
    public static LocalModel open(LocalSettings settings) {
        // Before DJL's tokenizer library first loads; a user who set it (to allow a native download) is obeyed.
        if (System.getProperty(DJL_OFFLINE) == null) {
            System.setProperty(DJL_OFFLINE, "true");
        }
        return new LocalModel(settings);
    }

    /** The settings the model was opened with. */
    public LocalSettings settings() {
        return settings;
    }

    /** Whether this model has loaded its runtime (ONNX session and tokenizer), which it does on its first text. */
    public boolean loaded() {
        return runtime != null;
    }

    /** How many distinct loaded models (ONNX sessions) this JVM holds now. */
    public static int loadedRuntimes() {
        return LocalRuntime.loaded();
    }

    @Override
    public String name() {
        return settings.spec().name();
    }

    @Override
    public int dimension() {
        return LocalRuntime.DIMENSION;
    }

    /**
     * {@code <name>:<model>:<jar version>:sha256-<12 hex of the model file>:max<max_tokens>:<pooling>:l2}, e.g.
     * {@code minilm:all-MiniLM-L6-v2-q:1.20.0-beta30:sha256-afdb6f1a0e45:max256:mean:l2}. The query instruction is
     * not part of it: it changes no stored vector.
     */
    @Override
    public String fingerprint() {
        return fingerprint;
    }

    /**
     * The unit vectors of {@code texts}, stored texts: each with the model's passage prefix put before it (none but
     * {@code e5-small}'s). Every text gets a vector, the empty text too (that of the model's start and
     * end tokens); a text longer than {@code max_tokens} word pieces is cut, and only its beginning counts.
     *
     * @throws BackendUnavailableException if the model has been closed or the runtime fails
     * @throws NullPointerException        if a text is null
     */
    @Override
    public List<float[]> embed(List<String> texts) {
        return run(prefixed(settings.spec().passagePrefix(), texts));
    }

    /** Runs {@code texts} through the model as they are. */
    private List<float[]> run(List<String> texts) {
        if (texts.isEmpty()) {
            return List.of();
        }
        lock.readLock().lock();
        try {
            if (closed) {
                throw new BackendUnavailableException("The " + name() + " embedding model has been closed.");
            }
            return runtime().embed(texts, settings.batchSize());
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * The runtime, loaded by the first caller; the others wait for it. Called under the read lock, so that
     * {@link #close} cannot run before the hold it takes is recorded.
     *
     * @throws dev.forge.memory.BackendUnavailableException if the ONNX runtime or the tokenizer cannot run here (each
     *                                                      call tries again)
     */
    private LocalRuntime runtime() {
        LocalRuntime loaded = runtime;
        if (loaded == null) {
            synchronized (loading) {
                loaded = runtime;
                if (loaded == null) {
                    loaded = LocalRuntime.acquire(key);
                    runtime = loaded;
                }
            }
        }
        return loaded;
    }

    /**
     * The vectors of search queries: each with the model's query instruction put before it (and not the passage
     * prefix of stored texts), otherwise as {@link #embed}.
     */
    @Override
    public List<float[]> embedQueries(List<String> queries) {
        return run(prefixed(settings.queryInstruction(), queries));
    }

    private static List<String> prefixed(String prefix, List<String> texts) {
        return prefix.isEmpty() ? texts : texts.stream().map(text -> prefix + text).toList();
    }

    /** Lets go of the loaded model (if it was loaded), waiting for running calls of {@link #embed} to finish; idempotent. */
    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (!closed) {
                closed = true;
                if (runtime != null) {
                    runtime.release();
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public String toString() {
        return "LocalModel[" + fingerprint + ", threads=" + settings.threads() + ", batch_size=" + settings.batchSize() + "]";
    }
}
