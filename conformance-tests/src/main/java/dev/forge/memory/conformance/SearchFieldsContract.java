package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.abort;

import dev.forge.memory.Capability;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code search_fields} setting: a provider configured with {@code [key, tags, metadata.topic]} finds in keyword
 * search a word that only {@code metadata.topic} holds, and with the default ({@code [key, tags]}) it does not; an
 * unknown item is a {@link ConfigurationException} naming the setting. The settings reach the provider through the
 * context's config block (see {@link MemoryProviderConformance#withSettings}); a provider whose factory has no such
 * setting refuses it as an unknown key, and the group is skipped with that message.
 */
@RequiresCapability(Capability.KEYWORD_SEARCH)
public abstract class SearchFieldsContract extends ContractSupport {

    /** The setting's key. */
    static final String SETTING = "search_fields";

    private static final List<String> WITH_TOPIC = List.of("key", "tags", "metadata.topic");

    private MemoryProvider configured;

    /** Opens the provider under test again with {@code search_fields: [key, tags, metadata.topic]}, or skips the group. */
    @BeforeEach
    final void openWithSearchFields() throws IOException {
        try {
            configured = openWith(WITH_TOPIC);
        } catch (ConfigurationException e) {
            if (e.field().map(f -> f.endsWith("." + SETTING)).orElse(false) && e.getMessage().contains("unknown key")) {
                abort("provider '" + provider.name() + "' has no '" + SETTING + "' setting: " + e.getMessage());
            }
            throw e;
        }
    }

    /** A provider on a store of its own (a setting holds for a whole store), with {@code search_fields: fields}. */
    private MemoryProvider openWith(List<String> fields) throws IOException {
        Path store = Files.createDirectories(workDirectory().resolve("store-with-fields"));
        ProviderContext base = context(PROJECT, SESSION).toBuilder().baseDirectory(store)
                .forgeHome(store.resolve("forge-home")).build();
        Map<String, Object> values = new LinkedHashMap<>(base.config().values());
        values.put(SETTING, fields);
        MemoryProvider p = openProvider(base.withConfig(ProviderConfig.of(values, "conformance search_fields",
                "memory.config")));
        closeAfterTest(p);
        return p;
    }

    /** Stores the entries of these tests through {@code p}: a word ("zeppelins") only in one entry's metadata.topic. */
    private static void seed(MemoryProvider p) {
        p.set("airships", "Rigid frames and gas cells.", Scope.PROJECT, List.of("history"), Map.of("topic", "zeppelins"));
        p.set("boats", "Hulls and keels.", Scope.PROJECT, List.of("history"), Map.of("topic", "ships"));
        p.set("trains", "Rails and sleepers.", Scope.PROJECT, List.of(), Map.of());
    }

    @Test
    void a_word_found_only_in_a_configured_metadata_field_is_a_keyword_hit() {
        seed(configured);
        assertThat(hitKeys(configured.search(SearchRequest.keyword("zeppelins"))))
                .as("keyword search for a word of metadata.topic on provider '%s' with search_fields %s",
                        configured.name(), WITH_TOPIC)
                .containsExactly("airships");
        assertThat(hitKeys(configured.search(SearchRequest.keyword("keels")))).as("the value is still searched")
                .containsExactly("boats");
        assertThat(hitKeys(configured.search(SearchRequest.keyword("boats")))).as("and so is the key").containsExactly("boats");
    }

    @Test
    void with_the_default_fields_metadata_is_not_searched() {
        seed(provider);
        assertThat(provider.search(SearchRequest.keyword("zeppelins")))
                .as("keyword search for a word only metadata.topic holds, on provider '%s' with the default search_fields",
                        provider.name())
                .isEmpty();
        assertThat(hitKeys(provider.search(SearchRequest.keyword("airships")))).containsExactly("airships");
    }

    @Test
    void an_unknown_item_is_a_configuration_error_naming_the_setting() {
        assertThatThrownBy(() -> openWith(List.of("key", "title")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(SETTING)
                .hasMessageContaining("'title'");
    }
}
