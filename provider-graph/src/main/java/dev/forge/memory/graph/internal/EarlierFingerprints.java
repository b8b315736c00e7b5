package dev.forge.memory.graph.internal;

import dev.forge.memory.embedding.EmbeddingModel;
import java.util.List;
import java.util.Map;
import org.neo4j.driver.TransactionContext;

/**
 * Puts a model's current fingerprint in place of the earlier forms of it it {@linkplain EmbeddingModel#recognises
 * recognises} (written by an earlier version, with a secret in clear, or with a secret since rotated): on the store's
 * {@code :ForgeMemoryStore} node and on every entry's {@code embeddingModel} tag, so that the store's vectors stay the
 * model's without a reindex and no earlier form, which may hold a secret, is kept.
 */
final class EarlierFingerprints {

    private EarlierFingerprints() {
    }

    /**
     * Retags, in {@code tx}, the entries of {@code store} whose tag is an earlier form of {@code model}'s fingerprint,
     * and records its fingerprint on the store node if {@code recorded} (what the node holds) is one.
     *
     * @return the fingerprint the store node holds afterwards
     */
    static String adopt(TransactionContext tx, String store, EmbeddingModel model, String recorded) {
        String fingerprint = model.fingerprint();
        List<String> tags = tx.run("MATCH (m:Memory) WHERE m.store = $store AND m.embeddingModel IS NOT NULL"
                + " AND m.embeddingModel <> $fingerprint RETURN DISTINCT m.embeddingModel AS tag",
                Map.of("store", store, "fingerprint", fingerprint)).list(r -> r.get("tag").asString());
        for (String tag : tags) {
            if (model.recognises(tag)) {
                tx.run("MATCH (m:Memory) WHERE m.store = $store AND m.embeddingModel = $tag SET m.embeddingModel = $fingerprint",
                        Map.of("store", store, "tag", tag, "fingerprint", fingerprint)).consume();
            }
        }
        if (recorded.isEmpty() || recorded.equals(fingerprint) || !model.recognises(recorded)) {
            return recorded;
        }
        tx.run("MATCH (s:ForgeMemoryStore {store: $store}) SET s.fingerprint = $fingerprint",
                Map.of("store", store, "fingerprint", fingerprint)).consume();
        return fingerprint;
    }
}
