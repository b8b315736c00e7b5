package dev.forge.memory.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.spi.ProviderConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every unknown key of a block in one message, with what to use instead. */
class UnknownKeysTest {

    record Local(String path, Map<String, Object> embedding, Integer rrfK) {
    }

    @Test
    void keys_are_named_as_binding_names_them() {
        var jackson = new PropertyNamingStrategies.SnakeCaseStrategy();
        for (String name : new String[] {"path", "rrfK", "maxEntries", "busyTimeout", "keywordWeight", "apiKeyEnv",
                "sendEncodingFormat", "exactLimit", "globalPath"}) {
            assertThat(UnknownKeys.snakeCase(name)).as(name).isEqualTo(jackson.translate(name));
        }
        assertThat(UnknownKeys.keysOf(Local.class)).containsExactly("embedding", "path", "rrf_k");
    }

    @Test
    void every_unknown_key_is_reported_at_once_with_hints_and_no_secret() {
        Map<String, Object> block = new LinkedHashMap<>();
        block.put("url", "https://api.pinecone.io");
        block.put("api_key", "s3cr3t-value");
        block.put("index", "forge-memory");
        block.put("embedding_model", "openai/text-embedding-3-small");
        block.put("dimensions", 1536);
        block.put("rrf", 20);
        ProviderConfig config = ProviderConfig.of(block, "config.yaml", "memory.config");
        assertThatThrownBy(() -> UnknownKeys.check(config, UnknownKeys.keysOf(Local.class), "vector", "A Lucene index."))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("unknown keys 'memory.config.url', 'memory.config.api_key', 'memory.config.index', "
                        + "'memory.config.embedding_model', 'memory.config.dimensions', 'memory.config.rrf'")
                .hasMessageContaining("url, api_key, index: the 'vector' provider is a local store, not a client of a remote "
                        + "service (A Lucene index): it keeps its data under 'path'.")
                .hasMessageContaining("embedding_model, dimensions: write the embedding block: embedding: {model: openai, "
                        + "remote_model: text-embedding-3-small, dimension: 1536}")
                .hasMessageContaining("rrf: did you mean 'rrf_k'?")
                .hasMessageContaining("Known keys: embedding, path, rrf_k.")
                .message().doesNotContain("s3cr3t");
    }

    @Test
    void search_fields_on_a_provider_without_it_says_the_text_is_fixed() {
        ProviderConfig config = ProviderConfig.of(Map.of("search_fields", List.of("metadata.topic")), "config.yaml",
                "memory.config");
        assertThatThrownBy(() -> UnknownKeys.check(config, Set.of("url", "store"), "graph", "Neo4j."))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("unknown key 'memory.config.search_fields'")
                .hasMessageContaining("the 'graph' provider indexes a fixed text (key, tags and value)")
                .satisfies(e -> assertThat(((ConfigurationException) e).field()).contains("memory.config.search_fields"));
    }

    @Test
    void one_unknown_key_reads_as_before() {
        ProviderConfig config = ProviderConfig.of(Map.of("pth", "x"), "config.yaml", "memory.config");
        assertThatThrownBy(() -> UnknownKeys.check(config, Set.of("path"), "file", "Files."))
                .hasMessage("config.yaml: unknown key 'memory.config.pth'. Did you mean 'path'? Known keys: path.");
        UnknownKeys.check(ProviderConfig.of(Map.of("path", "x")), Set.of("path"), "file", "Files.");
    }
}
