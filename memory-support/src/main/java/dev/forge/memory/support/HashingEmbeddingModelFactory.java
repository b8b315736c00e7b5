package dev.forge.memory.support;

import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.spi.ProviderConfig;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code hashing} model: a lexical bag of words turned into a vector by feature hashing. It needs no download,
 * no network and no native code, and makes the same vector for the same text on every machine, so it suits tests,
 * offline use and a first index; it finds texts that share words and parts of words (character trigrams, so
 * {@code deploy} is close to {@code deployment}), not texts that share only meaning. Use a real model for that.
 *
 * <pre>{@code
 * embedding:
 *   model: hashing
 *   dimension: 384   # 16 to 4096; default 384
 * }</pre>
 */
public final class HashingEmbeddingModelFactory extends ConfiguredModelFactory<HashingEmbeddingModelFactory.Settings> {

    /** The name config chooses this model by. */
    public static final String NAME = "hashing";

    /** Does nothing; see {@link #open}. */
    public HashingEmbeddingModelFactory() {
        super(NAME, Settings.class, "Lexical bag of words by feature hashing: no download, no network; matches shared words, not meaning.");
    }

    @Override
    protected EmbeddingModel open(Settings settings, ProviderConfig raw) {
        return new HashingModel(settings.dimension());
    }

    /**
     * The model's settings.
     *
     * @param dimension the number of components, 16 to 4096; default 384
     */
    public record Settings(Integer dimension) {

        /** Fills in the default and checks the range. */
        public Settings {
            if (dimension == null) {
                dimension = 384;
            } else if (dimension < 16 || dimension > 4096) {
                throw new ConfigurationException("'dimension' of the hashing model must be 16 to 4096, not " + dimension + ".");
            }
        }
    }

    /** Word and trigram counts hashed into signed buckets, then scaled to unit length. */
    private static final class HashingModel implements EmbeddingModel {

        private static final float WORD_WEIGHT = 1.0f;
        private static final float TRIGRAM_WEIGHT = 0.5f;

        private final int dimension;

        HashingModel(int dimension) {
            this.dimension = dimension;
        }

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public int dimension() {
            return dimension;
        }

        @Override
        public String fingerprint() {
            return NAME + "/1/fnv1a64/words+trigrams/sublinear-tf/l2/dim=" + dimension;
        }

        @Override
        public List<float[]> embed(List<String> texts) {
            List<float[]> vectors = new ArrayList<>(texts.size());
            for (String text : texts) {
                vectors.add(vector(Objects.requireNonNull(text, "text")));
            }
            return vectors;
        }

        private float[] vector(String text) {
            Map<String, Integer> words = new LinkedHashMap<>();
            for (String word : words(text)) {
                words.merge(word, 1, Integer::sum);
            }
            float[] vector = new float[dimension];
            words.forEach((word, count) -> {
                float weight = (float) (1 + Math.log(count));
                add(vector, "w:" + word, WORD_WEIGHT * weight);
                String padded = "^" + word + "$";
                int[] points = padded.codePoints().toArray();
                for (int i = 0; i + 3 <= points.length; i++) {
                    add(vector, "t:" + new String(points, i, 3), TRIGRAM_WEIGHT * weight);
                }
            });
            double norm = 0;
            for (float component : vector) {
                norm += component * component;
            }
            if (norm > 0) {
                float scale = (float) (1 / Math.sqrt(norm));
                for (int i = 0; i < vector.length; i++) {
                    vector[i] *= scale;
                }
            }
            return vector;
        }

        private void add(float[] vector, String feature, float weight) {
            long hash = fnv1a(feature);
            int bucket = (int) Long.remainderUnsigned(hash, dimension);
            // The sign comes from other bits, so collisions cancel out on average instead of piling up.
            vector[bucket] += (hash >>> 63) == 0 ? weight : -weight;
        }

        private static long fnv1a(String feature) {
            long hash = 0xcbf29ce484222325L;
            for (byte b : feature.getBytes(StandardCharsets.UTF_8)) {
                hash ^= b & 0xff;
                hash *= 0x100000001b3L;
            }
            return hash;
        }

        /** Lower-case runs of letters and digits, as keyword search splits text. */
        private static List<String> words(String text) {
            List<String> words = new ArrayList<>();
            StringBuilder word = new StringBuilder();
            text.codePoints().forEach(c -> {
                if (Character.isLetterOrDigit(c)) {
                    word.appendCodePoint(c);
                } else if (word.length() > 0) {
                    words.add(word.toString().toLowerCase(Locale.ROOT));
                    word.setLength(0);
                }
            });
            if (word.length() > 0) {
                words.add(word.toString().toLowerCase(Locale.ROOT));
            }
            return words;
        }
    }
}
