package dev.forge.memory.hybrid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.conformance.EmbeddingSecretsContract;
import dev.forge.memory.hybrid.internal.Outbox;
import dev.forge.memory.spi.ProviderConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A hybrid router (sqlite storage, a vector search child with the openai model) keeps the secrets of its search
 * child's model out of its files (the outbox included), messages and log: see the contract. And the updates that wait
 * in the outbox for the search child still reach it after the token in its URL is rotated: outbox records name their
 * child without its secrets.
 */
class HybridEmbeddingSecretsTest extends EmbeddingSecretsContract {

    @Override
    protected String providerName() {
        return HybridMemoryProvider.NAME;
    }

    @Override
    protected Map<String, Object> config(Path base, Map<String, Object> embedding) {
        return Map.of("storage", Map.of("provider", "sqlite"), "search", Map.of("provider", "vector",
                "embedding", embedding));
    }

    @Override
    protected String embeddingPath() {
        return "search.embedding";
    }

    @Test
    void an_update_tagged_with_the_secrets_before_they_were_left_out_of_the_tag_still_reaches_the_search_child()
            throws IOException {
        try (MemoryProvider router = open(service.url(TOKEN), MODEL, true)) {
            service.stop();
            router.set("waiting", "Written while the embedding service is gone", Scope.PROJECT);
        }
        // what an earlier version wrote: the record tagged with a hash of the settings, secrets and all
        Map<String, Object> search = ProviderConfig.of(config(base, service.embedding(service.url(TOKEN), MODEL)))
                .bind(HybridConfig.class).search();
        Map<String, Object> withKey = new java.util.LinkedHashMap<>(search);
        @SuppressWarnings("unchecked")
        Map<String, Object> embedding = new java.util.LinkedHashMap<>((Map<String, Object>) search.get("embedding"));
        embedding.put("api_key", KEY);
        withKey.put("embedding", embedding);
        Path file = base.resolve(".forge/outbox").resolve(Outbox.FILE_NAME);
        Files.writeString(file, Files.readString(file).replaceAll("\"target\":\"[0-9a-f]+\"",
                "\"target\":\"" + Outbox.target(Outbox.Child.SEARCH, withKey, Set.of()) + "\""));

        service.start();
        try (MemoryProvider router = open(service.url(TOKEN), MODEL, true)) {
            ((HybridMemoryProvider) router).replayOutbox();
            assertThat(router.doctor()).as("nothing waits in the outbox").isEmpty();
            assertThat(router.search(SearchRequest.builder("Written while the embedding service is gone")
                    .mode(SearchMode.SEMANTIC).build())).first().satisfies(hit -> assertThat(hit.entry().key())
                    .isEqualTo("waiting"));
        }
    }

    @Test
    void updates_waiting_for_the_search_child_reach_it_after_the_token_is_rotated() throws IOException {
        try (MemoryProvider router = open(service.url(TOKEN), MODEL, true)) {
            router.set("before", "Written while the service answers", Scope.PROJECT);
            service.stop();
            router.set("waiting", "Written while the embedding service is gone", Scope.PROJECT);
            assertThat(((HybridMemoryProvider) router).pendingUpdates()).isEqualTo(1);
        }
        service.start();
        try (MemoryProvider rotated = open(service.url(ROTATED), MODEL, true)) {
            assertThat(((HybridMemoryProvider) rotated).replayOutbox()).as("updates still waiting").isZero();
            assertThat(rotated.search(SearchRequest.builder("Written while the embedding service is gone")
                    .mode(SearchMode.SEMANTIC).build())).first().satisfies(hit -> assertThat(hit.entry().key())
                    .isEqualTo("waiting"));
            assertThat(rotated.doctor()).isEmpty();
        }
    }
}
