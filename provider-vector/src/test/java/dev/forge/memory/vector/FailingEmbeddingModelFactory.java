package dev.forge.memory.vector;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.embedding.EmbeddingModelFactory;
import dev.forge.memory.support.HashingEmbeddingModelFactory;
import dev.forge.memory.spi.ProviderConfig;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test model, {@code failing}: the hashing model under another fingerprint whose {@code embed} fails (as a remote
 * model that went away would) from its {@code fail_at}-th call on, or on every call with a text containing
 * {@code fail_on}, for tests of a reindex or an import batch that breaks half way.
 */
public final class FailingEmbeddingModelFactory implements EmbeddingModelFactory {

    /** Does nothing. */
    public FailingEmbeddingModelFactory() {
    }

    @Override
    public String name() {
        return "failing";
    }

    @Override
    public String description() {
        return "Test model: hashing vectors, fails from a given call on.";
    }

    @Override
    public EmbeddingModel open(ProviderConfig settings) {
        Settings bound = settings.bind(Settings.class);
        EmbeddingModel hashing = new HashingEmbeddingModelFactory().open(ProviderConfig.of(Map.of("dimension", bound.dimension())));
        AtomicInteger calls = new AtomicInteger();
        return new EmbeddingModel() {
            @Override
            public String name() {
                return "failing";
            }

            @Override
            public int dimension() {
                return hashing.dimension();
            }

            @Override
            public String fingerprint() {
                return "failing/" + hashing.fingerprint();
            }

            @Override
            public List<float[]> embed(List<String> texts) {
                if (bound.failAt() != null && calls.incrementAndGet() >= bound.failAt()) {
                    throw new BackendUnavailableException("the failing test model fails at call " + calls.get());
                }
                if (bound.failOn() != null && texts.stream().anyMatch(text -> text.contains(bound.failOn()))) {
                    throw new BackendUnavailableException("the failing test model fails on '" + bound.failOn() + "'");
                }
                return hashing.embed(texts);
            }
        };
    }

    /**
     * @param dimension the hashing dimension
     * @param failAt    the first call of {@code embed} that fails, or null
     * @param failOn    text whose presence in any of a call's texts fails the call, or null
     */
    record Settings(Integer dimension, Integer failAt, String failOn) {
    }
}
