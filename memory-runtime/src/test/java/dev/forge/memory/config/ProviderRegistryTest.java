package dev.forge.memory.config;

import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.ProviderRegistry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.Capability;
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

    /** A factory whose name() fails, as a half-built plugin's might. */
    public static final class NamelessFactory implements MemoryProviderFactory {
        @Override
        public String name() {
            throw new IllegalStateException("no name today");
        }

        @Override
        public MemoryProvider open(ProviderContext context) {
            throw new IllegalStateException("never opened");
        }
    }

    /** A factory with a name config could never select. */
    public static final class BadlyNamedFactory implements MemoryProviderFactory {
        @Override
        public String name() {
            return "Bad Name";
        }

        @Override
        public MemoryProvider open(ProviderContext context) {
            throw new IllegalStateException("never opened");
        }
    }

    @Test
    void factories_with_failing_or_malformed_names_are_reported_not_fatal() throws IOException {
        ProviderRegistry registry = ProviderRegistry.load(withServices(NamelessFactory.class.getName(), BadlyNamedFactory.class.getName()));
        assertThat(registry.names()).containsExactly("in-memory", "relational");
        assertThat(String.join(" ", registry.problems())).contains("NamelessFactory").contains("no name today").contains("'Bad Name'");
    }

    @Test
    void names_cannot_be_changed_by_callers() {
        ProviderRegistry registry = ProviderRegistry.load();
        assertThatThrownBy(() -> registry.names().remove("in-memory")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(registry.names()).contains("in-memory");
    }

    @Test
    void registry_is_looked_up_only_when_first_needed_and_once() {
        ProviderContext context = ProviderContext.builder().projectId("demo").build();
        assertThat(context.registry()).isSameAs(context.registry());
        assertThat(context.withConfig(ProviderConfig.empty()).registry()).isSameAs(context.registry());
    }

    @Test
    void open_by_name_gives_a_working_provider() {
        ProviderContext context = ProviderContext.builder().projectId("demo").build();
        try (MemoryProvider provider = context.open("in-memory", ProviderConfig.empty())) {
            provider.set("k", "v", Scope.PROJECT);
            assertThat(provider.get("k", Scope.PROJECT)).isPresent();
        }
    }

    @Test
    void in_memory_factory_knows_only_tombstones() {
        ProviderContext context = ProviderContext.builder().projectId("demo").registry(ProviderRegistry.of(new InMemoryMemoryProviderFactory()))
                .config(ProviderConfig.of(Map.of("path", "x"))).build();
        assertThatThrownBy(() -> new InMemoryMemoryProviderFactory().open(context)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("path").hasMessageContaining("tombstones");
        ProviderContext tombstones = context.withConfig(ProviderConfig.of(Map.of("tombstones", true)));
        assertThat(new InMemoryMemoryProviderFactory().open(tombstones).capabilities()).contains(Capability.TOMBSTONES);
        assertThat(new InMemoryMemoryProviderFactory().open(context.withConfig(ProviderConfig.empty())).capabilities())
                .doesNotContain(Capability.TOMBSTONES);
    }

    @Test
    void context_rejects_malformed_ids_and_resolves_relative_paths() {
        assertThatThrownBy(() -> ProviderContext.builder().registry(ProviderRegistry.of()).projectId("").build())
                .hasMessageContaining("project id");
        assertThatThrownBy(() -> ProviderContext.builder().registry(ProviderRegistry.of()).build())
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("project id");
        assertThatThrownBy(() -> ProviderContext.builder().projectId("p").sessionId("a\nb").build())
                .hasMessageContaining("session id");
        ProviderContext context = ProviderContext.builder().projectId("p").registry(ProviderRegistry.of()).baseDirectory(dir).build();
        assertThatThrownBy(() -> context.resolve("bad\u0000path")).isInstanceOf(ConfigurationException.class);
        assertThat(context.resolve("memory")).isEqualTo(dir.toAbsolutePath().resolve("memory"));
        assertThat(context.resolve(dir.resolve("abs").toString())).isEqualTo(dir.resolve("abs").toAbsolutePath());
        assertThat(context.sessionId()).isNotBlank();
    }
}
