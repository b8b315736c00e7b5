package dev.forge.memory.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.Capability;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.Setting;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The in-memory factory: its described settings, and the config it binds through the shared factory base. */
class InMemoryMemoryProviderFactoryTest {

    private final InMemoryMemoryProviderFactory factory = new InMemoryMemoryProviderFactory();

    private MemoryProvider open(Map<String, ?> config) {
        return factory.open(ProviderContext.builder().projectId("demo").config(ProviderConfig.of(config)).build());
    }

    @Test
    void the_described_settings_are_tombstones_at_its_default_and_an_example_embedding_block() {
        List<Setting> settings = factory.settings();
        assertThat(settings).extracting(Setting::name).containsExactly("tombstones", InMemoryMemoryProviderFactory.EMBEDDING, "search_fields");
        assertThat(settings).noneMatch(Setting::required);
        assertThat(ProviderConfig.of(Map.of("tombstones", settings.get(0).defaultValue()))
                .bind(InMemoryMemoryProviderFactory.Settings.class).tombstones()).isFalse();
    }

    @Test
    void tombstones_and_an_embedding_block_take_effect_and_an_unknown_key_is_refused() {
        try (MemoryProvider plain = open(Map.of())) {
            assertThat(plain.capabilities()).doesNotContain(Capability.TOMBSTONES, Capability.SEMANTIC_SEARCH);
        }
        try (MemoryProvider configured = open(Map.of("tombstones", true, "embedding", Map.of("model", "hashing")))) {
            assertThat(configured.capabilities()).contains(Capability.TOMBSTONES, Capability.SEMANTIC_SEARCH);
            configured.set("k", "v", Scope.PROJECT, List.of(), Map.of());
            assertThat(configured.get("k", Scope.PROJECT)).isPresent();
        }
        assertThatThrownBy(() -> open(Map.of("tombstone", true))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'config.tombstone'").hasMessageContaining("tombstones");
        assertThatThrownBy(() -> open(Map.of("embedding", Map.of("model", "no-such-model"))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("no-such-model");
    }
}
