package dev.forge.memory.embeddings.internal;

import dev.forge.memory.ConfigurationException;
import java.util.Objects;

/**
 * The settings of an open local model, checked: what its factory's settings record binds, with defaults filled in.
 *
 * @param spec             which model
 * @param threads          inferences one call runs at once, 1 to 64
 * @param batchSize        texts per inference, 1 to 1024
 * @param maxTokens        word pieces a text is cut to, 16 to {@link #MODEL_WINDOW}
 * @param queryInstruction put before every search query; empty for none
 */
public record LocalSettings(LocalModelSpec spec, int threads, int batchSize, int maxTokens, String queryInstruction) {

    /** The position window of every local model: no text is longer than this after cutting. */
    public static final int MODEL_WINDOW = 512;

    /** Checks that the instruction is not null. */
    public LocalSettings {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(queryInstruction, "queryInstruction");
    }

    /** {@code threads}, or the smaller of the number of processors and 4. */
    public static int threads(String model, Integer threads) {
        if (threads == null) {
            return Math.min(Runtime.getRuntime().availableProcessors(), 4);
        }
        return inRange(model, "threads", threads, 1, 64);
    }

    /** {@code batchSize}, or 1. */
    public static int batchSize(String model, Integer batchSize) {
        return batchSize == null ? 1 : inRange(model, "batch_size", batchSize, 1, 1024);
    }

    /** {@code maxTokens}, or {@code defaultValue}. */
    public static int maxTokens(String model, Integer maxTokens, int defaultValue) {
        return maxTokens == null ? defaultValue : inRange(model, "max_tokens", maxTokens, 16, MODEL_WINDOW);
    }

    private static int inRange(String model, String key, int value, int min, int max) {
        if (value < min || value > max) {
            throw new ConfigurationException("'" + key + "' of the " + model + " model must be " + min + " to " + max
                    + ", not " + value + ".");
        }
        return value;
    }
}
