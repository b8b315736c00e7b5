package dev.forge.memory.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.UnknownProviderException;
import dev.forge.memory.inmemory.InMemoryMemoryProviderFactory;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProviderRegistryTest {

    /** A second factory claiming the in-memory provider's name. */
    public static final class ImpostorFactory implements MemoryProviderFactory {
        @Override
        public String name() {
            return "in-memory";
        }

        @Override
        public MemoryProvider open(ProviderContext context) {
            return new InMemoryMemoryProviderFactory().open(context);
        }
    }

    /** A factory whose construction fails, as a broken plugin would. */
    public static final class BrokenFactory implements MemoryProviderFactory {
        public BrokenFactory() {
            throw new IllegalStateException("broken on purpose");
        }

        @Override
        public String name() {
            return "broken";
        }

        @Override
        public MemoryProvider open(ProviderContext context) {
            throw new IllegalStateException("never opened");
        }
    }

    @TempDir
    Path dir;

    private ClassLoader withServices(String... classNames) throws IOException {
        Path services = dir.resolve("META-INF/services");
        Files.createDirectories(services);
        Files.writeString(services.resolve(MemoryProviderFactory.class.getName()), String.join("\n", classNames) + "\n");
        return new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader());
    }

    @Test
    void service_loader_finds_the_in_memory_provider() {
        ProviderRegistry registry = ProviderRegistry.load();
        assertThat(registry.names()).contains("in-memory");
        assertThat(registry.factory("in-memory")).isInstanceOf(InMemoryMemoryProviderFactory.class);
        assertThat(registry.problems()).isEmpty();
    }

    @Test
    void unknown_name_lists_the_names_found_and_hints_at_a_missing_jar() {
        ProviderRegistry registry = ProviderRegistry.load();
        assertThatThrownBy(() -> registry.factory("sqlitee")).isInstanceOfSatisfying(UnknownProviderException.class, e -> {
            assertThat(e.requested()).isEqualTo("sqlitee");
            assertThat(e.available()).contains("in-memory");
            assertThat(e.getMessage()).contains("'sqlitee'").contains("in-memory").contains("jar");
        });
    }

    @Test
    void a_factory_that_fails_to_load_is_reported_and_the_others_still_work() throws IOException {
        ProviderRegistry registry = ProviderRegistry.load(withServices(BrokenFactory.class.getName(), "com.example.Missing"));
        assertThat(registry.names()).contains("in-memory").doesNotContain("broken");
        assertThat(registry.problems()).hasSize(2);
        assertThat(String.join(" ", registry.problems())).contains("BrokenFactory").contains("com.example.Missing");
        assertThatThrownBy(() -> registry.factory("broken")).hasMessageContaining("BrokenFactory");
    }

    @Test
    void two_factories_with_one_name_are_an_error_naming_both_classes() throws IOException {
        ProviderRegistry registry = ProviderRegistry.load(withServices(ImpostorFactory.class.getName()));
        assertThatThrownBy(() -> registry.factory("in-memory")).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(InMemoryMemoryProviderFactory.class.getName())
                .hasMessageContaining(ImpostorFactory.class.getName());
    }

    @Test
    void open_by_name_gives_a_working_provider() {
        ProviderContext context = ProviderContext.builder().registry(ProviderRegistry.load()).build();
        try (MemoryProvider provider = context.open("in-memory", ProviderConfig.empty())) {
            provider.set("k", "v", Scope.PROJECT);
            assertThat(provider.get("k", Scope.PROJECT)).isPresent();
        }
    }

    @Test
    void in_memory_factory_rejects_any_config_key() {
        ProviderContext context = ProviderContext.builder().registry(ProviderRegistry.of(new InMemoryMemoryProviderFactory()))
                .config(ProviderConfig.of(Map.of("path", "x"))).build();
        assertThatThrownBy(() -> new InMemoryMemoryProviderFactory().open(context)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("path");
    }

    @Test
    void context_rejects_malformed_ids_and_resolves_relative_paths() {
        assertThatThrownBy(() -> ProviderContext.builder().registry(ProviderRegistry.of()).projectId("").build())
                .hasMessageContaining("project id");
        assertThatThrownBy(() -> ProviderContext.builder().registry(ProviderRegistry.of()).sessionId("a\nb").build())
                .hasMessageContaining("session id");
        ProviderContext context = ProviderContext.builder().registry(ProviderRegistry.of()).baseDirectory(dir).build();
        assertThat(context.resolve("memory")).isEqualTo(dir.toAbsolutePath().resolve("memory"));
        assertThat(context.resolve(dir.resolve("abs").toString())).isEqualTo(dir.resolve("abs").toAbsolutePath());
        assertThat(context.sessionId()).isNotBlank();
    }
}
