package dev.forge.memory.openai.internal;

import dev.forge.memory.openai.OpenAiEmbeddingModelFactory;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The fingerprint of an openai model: {@code openai:<host[:port]path>:<remote model>:<dimension>:l2}, with a secret
 * setting kept out. A {@code url} that is a secret (from a secret-looking variable) reads {@code ****}: what identifies
 * the vectors is the remote model and the dimension, so a key or token in the URL can be rotated without a reindex. A
 * {@code remote_model} that is a secret reads as a one-way hash of it ({@code sha256=} and 16 hex digits), so that
 * another model is still told apart.
 *
 * <p>Before secrets were kept out, the fingerprint held those settings in clear. Such a recorded fingerprint is still
 * {@linkplain #recognises recognised} (the provider then records the new one in its place), and shown with the parts
 * that may hold a secret masked.
 */
final class OpenAiFingerprint {

    private static final String NORMALISATION = "l2";
    private static final String HASHED = "sha256=";

    private final String where;
    private final String remoteModel;
    private final int dimension;
    private final boolean urlSecret;
    private final boolean remoteModelSecret;
    private final Redaction redaction;
    private final String value;

    OpenAiFingerprint(String where, String remoteModel, int dimension, boolean urlSecret, boolean remoteModelSecret,
            Redaction redaction) {
        this.where = where;
        this.remoteModel = remoteModel;
        this.dimension = dimension;
        this.urlSecret = urlSecret;
        this.remoteModelSecret = remoteModelSecret;
        this.redaction = redaction;
        this.value = compose(urlSecret ? Redaction.MASK : where, remoteModelSecret ? hashed(remoteModel) : remoteModel);
    }

    /** The fingerprint. */
    String value() {
        return value;
    }

    /**
     * Whether vectors recorded under {@code recorded} are this model's: the same remote model and dimension, and the
     * same address unless the address is (or was, when recorded) a secret.
     */
    boolean recognises(String recorded) {
        if (recorded.equals(value)) {
            return true;
        }
        String prefix = OpenAiEmbeddingModelFactory.NAME + ":";
        String suffix = ":" + dimension + ":" + NORMALISATION;
        if (!recorded.startsWith(prefix) || !recorded.endsWith(suffix)
                || recorded.length() <= prefix.length() + suffix.length()) {
            return false;
        }
        String middle = recorded.substring(prefix.length(), recorded.length() - suffix.length());
        for (String model : List.of(remoteModel, hashed(remoteModel))) {
            if (middle.endsWith(":" + model)) {
                String recordedWhere = middle.substring(0, middle.length() - model.length() - 1);
                if (recordedWhere.equals(where) || recordedWhere.equals(Redaction.MASK)
                        || urlSecret && !recordedWhere.isEmpty()) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * {@code recorded} as a message may show it: this model's secrets masked and, where a secret setting of this model
     * may have gone into an openai fingerprint in clear (an earlier version, or an earlier secret), that part masked.
     */
    String describe(String recorded) {
        String prefix = OpenAiEmbeddingModelFactory.NAME + ":";
        if (recorded.equals(value) || !(urlSecret || remoteModelSecret) || !recorded.startsWith(prefix)
                || recorded.startsWith(prefix + Redaction.MASK + ":")) {
            return redaction.apply(recorded);
        }
        if (!urlSecret && recorded.startsWith(prefix + where + ":")) {
            String rest = recorded.substring((prefix + where + ":").length());
            return redaction.apply(prefix + where + ":" + (rest.startsWith(HASHED) ? rest : Redaction.MASK + tail(rest)));
        }
        return prefix + Redaction.MASK + tail(recorded);
    }

    private String compose(String shownWhere, String shownModel) {
        return String.join(":", OpenAiEmbeddingModelFactory.NAME, shownWhere, shownModel, Integer.toString(dimension),
                NORMALISATION);
    }

    /** The last two fields, the dimension and the normalisation, with their leading colon; empty if there are none. */
    private static String tail(String text) {
        int last = text.lastIndexOf(':');
        int before = last > 0 ? text.lastIndexOf(':', last - 1) : -1;
        return before >= 0 ? text.substring(before) : "";
    }

    /** A one-way hash of a secret model name: tells models apart without revealing the name. */
    static String hashed(String secret) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(
                    ("forge-memory openai remote_model\0" + secret).getBytes(StandardCharsets.UTF_8));
            return HASHED + HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
