package dev.forge.memory.embeddings.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.embeddings.MiniLmEmbeddingModelFactory;
import dev.forge.memory.embeddings.MiniLmEmbeddingModelFactory.Settings;
import java.util.List;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * An open {@code minilm} model: a hold on a shared {@link MiniLmRuntime}. Embedding takes a read lock and closing the
 * write lock, so a runtime is never closed under a running inference.
 */
public final class MiniLmModel implements EmbeddingModel {

    /** The property that keeps DJL from going to the network for its native library or for models. */
    static final String DJL_OFFLINE = "ai.djl.offline";

    private final Settings settings;
    private final MiniLmRuntime runtime;
    private final String fingerprint;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    /** Guarded by the write lock. */
    private boolean closed;

    private MiniLmModel(Settings settings, MiniLmRuntime runtime) {
        this.settings = settings;
        this.runtime = runtime;
        ModelFiles.Identity identity = runtime.identity();
        this.fingerprint = String.join(":", MiniLmEmbeddingModelFactory.NAME, "all-MiniLM-L6-v2-q",
                identity.artifactVersion(), "sha256-" + identity.modelSha256(), "max" + settings.maxTokens(), "mean", "l2");
    }

    /**
     * Opens the model with {@code settings}, loading it unless an open model in this JVM already has it loaded with
     * the same threads and token limit.
     */
    public static MiniLmModel open(Settings settings) {
        // Before DJL's tokenizer library first loads; a user who set it (to allow a native download) is obeyed.
        if (System.getProperty(DJL_OFFLINE) == null) {
            System.setProperty(DJL_OFFLINE, "true");
        }
        return new MiniLmModel(settings, MiniLmRuntime.acquire(new MiniLmRuntime.Key(settings.threads(), settings.maxTokens())));
    }

    /** The settings the model was opened with. */
    public Settings settings() {
        return settings;
    }

    /** How many distinct loaded models (ONNX sessions) this JVM holds now. */
    public static int loadedRuntimes() {
        return MiniLmRuntime.loaded();
    }

    @Override
    public String name() {
        return MiniLmEmbeddingModelFactory.NAME;
    }

    @Override
    public int dimension() {
        return MiniLmRuntime.DIMENSION;
    }

    /**
     * {@code minilm:all-MiniLM-L6-v2-q:<jar version>:sha256-<12 hex of the model file>:max<max_tokens>:mean:l2}.
     */
    @Override
    public String fingerprint() {
        return fingerprint;
    }

    /**
     * The unit vectors of {@code texts}. Every text gets a vector, the empty text too (that of the model's start and
     * end tokens); a text longer than {@code max_tokens} word pieces is cut, and only its beginning counts.
     *
     * @throws BackendUnavailableException if the model has been closed or the runtime fails
     * @throws NullPointerException        if a text is null
     */
    @Override
    public List<float[]> embed(List<String> texts) {
        if (texts.isEmpty()) {
            return List.of();
        }
        lock.readLock().lock();
        try {
            if (closed) {
                throw new BackendUnavailableException("The minilm embedding model has been closed.");
            }
            return runtime.embed(texts, settings.batchSize());
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Lets go of the loaded model, waiting for running calls of {@link #embed} to finish; idempotent. */
    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (!closed) {
                closed = true;
                runtime.release();
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public String toString() {
        return "MiniLmModel[" + fingerprint + ", threads=" + settings.threads() + ", batch_size=" + settings.batchSize() + "]";
    }
}
