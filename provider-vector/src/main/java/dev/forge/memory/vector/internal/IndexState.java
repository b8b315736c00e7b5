package dev.forge.memory.vector.internal;

import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.support.SearchText;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the index records about its vectors in the Lucene commit user data: the fingerprint, name and dimension of
 * the model that made them, and whether every document has a vector of that model ({@code complete} is false while
 * a model change waits for its reindex). The {@code search_fields} the documents were indexed with (their keyword text
 * and the text their vectors were made from) are recorded under a key of their own; an index without it was built with
 * the default.
 *
 * @param fingerprint the model's fingerprint
 * @param model       the model's name
 * @param dimension   the vectors' dimension
 * @param complete    whether every document was embedded by this model
 * @param searchFields what the documents' text holds besides the value
 */
public record IndexState(String fingerprint, String model, int dimension, boolean complete, SearchText searchFields) {

    /** The user-data key marking an index this provider wrote, with the layout version as value. */
    public static final String FORMAT_KEY = "forge.vector.format";
    /** The layout version this code writes and reads. */
    public static final String FORMAT = "1";
    private static final String FINGERPRINT = "forge.vector.fingerprint";
    private static final String MODEL = "forge.vector.model";
    private static final String DIMENSION = "forge.vector.dimension";
    private static final String COMPLETE = "forge.vector.complete";
    private static final String SEARCH_FIELDS = "forge.vector.search_fields";

    /** A complete index of {@code model}'s vectors, its documents indexed with {@code searchFields}. */
    public static IndexState of(EmbeddingModel model, SearchText searchFields) {
        return new IndexState(model.fingerprint(), model.name(), model.dimension(), true, searchFields);
    }

    /** This state with another completeness. */
    public IndexState withComplete(boolean complete) {
        return new IndexState(fingerprint, model, dimension, complete, searchFields);
    }

    /** Whether this index serves {@code model} ({@link #serves(EmbeddingModel)}) and was indexed with {@code text}. */
    public boolean serves(EmbeddingModel model, SearchText text) {
        return serves(model) && searchFields.equals(text);
    }

    /** Whether this index's vectors can be searched with {@code model}: complete, and made by a model it recognises. */
    public boolean serves(EmbeddingModel model) {
        return complete && model.recognises(fingerprint);
    }

    /**
     * Whether the recorded fingerprint is {@code model}'s in an earlier form (written by an earlier version, or with a
     * secret since rotated), to be replaced by its current one.
     */
    public boolean recordedInAnEarlierForm(EmbeddingModel model) {
        return !fingerprint.equals(model.fingerprint()) && model.recognises(fingerprint);
    }

    /**
     * The fingerprint as messages show it: as {@code configured} {@linkplain EmbeddingModel#describe describes} it
     * (an earlier form may hold a secret), marked when a reindex is pending.
     */
    public String describedFingerprint(EmbeddingModel configured) {
        String shown = configured.describe(fingerprint);
        return complete ? shown : shown + " (incomplete: a model change is waiting for its reindex)";
    }

    /** The commit user data. */
    public Map<String, String> toUserData() {
        Map<String, String> data = new LinkedHashMap<>();
        data.put(FORMAT_KEY, FORMAT);
        data.put(FINGERPRINT, fingerprint);
        data.put(MODEL, model);
        data.put(DIMENSION, Integer.toString(dimension));
        data.put(COMPLETE, Boolean.toString(complete));
        if (!searchFields.isDefault()) {
            data.put(SEARCH_FIELDS, String.join("\n", searchFields.fields()));
        }
        return data;
    }

    /**
     * The state recorded in {@code data}, if it holds one.
     *
     * @throws IllegalArgumentException if it holds one that cannot be read
     */
    public static Optional<IndexState> fromUserData(Map<String, String> data) {
        if (!data.containsKey(FORMAT_KEY)) {
            return Optional.empty();
        }
        if (!FORMAT.equals(data.get(FORMAT_KEY))) {
            throw new IllegalArgumentException("index layout version " + data.get(FORMAT_KEY) + " is not " + FORMAT
                    + " (written by another forge-memory version)");
        }
        String fingerprint = data.get(FINGERPRINT);
        String model = data.get(MODEL);
        String dimension = data.get(DIMENSION);
        String complete = data.get(COMPLETE);
        if (fingerprint == null || model == null || dimension == null || complete == null) {
            throw new IllegalArgumentException("the commit data lacks the model's fingerprint, name, dimension or completeness");
        }
        String fields = data.get(SEARCH_FIELDS);
        SearchText searchFields = fields == null ? SearchText.DEFAULT
                : SearchText.of(fields.isEmpty() ? List.of() : List.of(fields.split("\n", -1)));
        return Optional.of(new IndexState(fingerprint, model, Integer.parseInt(dimension), Boolean.parseBoolean(complete),
                searchFields));
    }
}
