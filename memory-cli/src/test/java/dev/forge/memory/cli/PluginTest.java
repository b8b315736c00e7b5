package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.forge.memory.inmemory.InMemoryMemoryProvider;
import dev.forge.memory.inmemory.InMemoryStore;
import dev.forge.memory.spi.MemoryProviderFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A provider added without rebuilding anything: a factory compiled at test time, packaged with its
 * {@code META-INF/services} entry into a jar dropped into a plugin folder.
 */
class PluginTest {

    /**
     * The stores of the echo plugin, one per project directory. The plugin's own classes may be loaded afresh for
     * each call, so its statics need not survive from {@code set} to {@code get}; this class is loaded once, by the
     * test class loader, which is the plugin class loader's parent. The plugin finds it by name, so it compiles
     * against memory-api alone. Nothing goes into global state such as the system properties.
     */
    public static final class EchoStores {
        public static final Map<Path, InMemoryStore> STORES = new ConcurrentHashMap<>();

        private EchoStores() {
        }
    }

    private static final String FACTORY_SOURCE = """
            package echo;

            import dev.forge.memory.MemoryProvider;
            import dev.forge.memory.inmemory.InMemoryMemoryProvider;
            import dev.forge.memory.inmemory.InMemoryStore;
            import dev.forge.memory.spi.MemoryProviderFactory;
            import dev.forge.memory.spi.ProviderContext;
            import java.nio.file.Path;
            import java.util.Map;

            public final class EchoPluginFactory implements MemoryProviderFactory {
                public EchoPluginFactory() {
                }

                @Override
                public String name() {
                    return "echo-plugin";
                }

                @Override
                public String description() {
                    return "A test plugin over an in-memory store.";
                }

                @Override
                public MemoryProvider open(ProviderContext context) {
                    Map<Path, InMemoryStore> stores = EchoStoresLookup.stores();
                    return new InMemoryMemoryProvider(stores.computeIfAbsent(context.baseDirectory(), k -> new InMemoryStore()), context);
                }
            }
            """;

    /**
     * A plugin that describes its settings: {@code label} (required: the name of its store under the project) and
     * {@code tombstones} (optional, default false), and binds them from its config block as the bundled providers do.
     */
    private static final String DESCRIBED_SOURCE = """
            package echo;

            import dev.forge.memory.ConfigurationException;
            import dev.forge.memory.MemoryProvider;
            import dev.forge.memory.inmemory.InMemoryMemoryProvider;
            import dev.forge.memory.inmemory.InMemoryStore;
            import dev.forge.memory.spi.MemoryProviderFactory;
            import dev.forge.memory.spi.ProviderContext;
            import dev.forge.memory.spi.Setting;
            import java.nio.file.Path;
            import java.util.List;
            import java.util.Map;

            public final class DescribedPluginFactory implements MemoryProviderFactory {
                public record Settings(String label, Boolean tombstones) {
                    public Settings {
                        if (label == null || label.isBlank()) {
                            throw new ConfigurationException("'label' is required: the name of the store.");
                        }
                    }
                }

                @Override
                public String name() {
                    return "described-plugin";
                }

                @Override
                public String description() {
                    return "A test plugin that describes its settings.";
                }

                @Override
                public List<Setting> settings() {
                    return List.of(
                            Setting.required("label", "string", "main", "the name of the store under the project"),
                            Setting.of("tombstones", "boolean", "false", "true: delete and clear keep the history"));
                }

                @Override
                public MemoryProvider open(ProviderContext context) {
                    Settings settings = context.config().bind(Settings.class);
                    Map<Path, InMemoryStore> stores = EchoStoresLookup.stores();
                    return new InMemoryMemoryProvider(stores.computeIfAbsent(context.baseDirectory().resolve(settings.label()),
                            k -> new InMemoryStore(Boolean.TRUE.equals(settings.tombstones()))), context);
                }
            }
            """;

    /**
     * Compiled into every plugin jar: finds {@link EchoStores} by name through the plugin's class loader, whose parent
     * is the test class loader.
     */
    private static final String LOOKUP_SOURCE = """
            package echo;

            import dev.forge.memory.inmemory.InMemoryStore;
            import java.nio.file.Path;
            import java.util.Map;

            final class EchoStoresLookup {
                private EchoStoresLookup() {
                }

                @SuppressWarnings("unchecked")
                static Map<Path, InMemoryStore> stores() {
                    try {
                        return (Map<Path, InMemoryStore>) Class.forName("%s", true,
                                EchoStoresLookup.class.getClassLoader()).getField("STORES").get(null);
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
            """.formatted(EchoStores.class.getName());

    private CliHarness cli;

    @BeforeEach
    void setUp(@TempDir Path root) {
        cli = new CliHarness(root);
    }

    @AfterEach
    void forgetStore() {
        EchoStores.STORES.remove(projectKey());
        EchoStores.STORES.remove(projectKey().resolve("main"));
    }

    /** The key the plugin files this test's store under: the project directory, as the provider context gives it. */
    private Path projectKey() {
        return cli.project.toAbsolutePath().normalize();
    }

    /** A factory whose open() fails the way a plugin built against another API version does. */
    private static final String UNLINKABLE_SOURCE = """
            package echo;

            import dev.forge.memory.MemoryProvider;
            import dev.forge.memory.spi.MemoryProviderFactory;
            import dev.forge.memory.spi.ProviderContext;

            public final class UnlinkableFactory implements MemoryProviderFactory {
                @Override
                public String name() {
                    return "unlinkable";
                }

                @Override
                public MemoryProvider open(ProviderContext context) {
                    throw new NoSuchMethodError("dev.forge.memory.spi.ProviderContext.removedInThisVersion()");
                }
            }
            """;

    private Path buildPluginJar(Path folder) throws IOException, URISyntaxException {
        return buildPluginJar(folder, "echo-plugin.jar", "EchoPluginFactory", FACTORY_SOURCE);
    }

    /**
     * Compiles one factory class of package {@code echo} (with {@link #LOOKUP_SOURCE}) against memory-api and
     * memory-runtime and jars it with its service file.
     */
    private Path buildPluginJar(Path folder, String jarName, String className, String source)
            throws IOException, URISyntaxException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        assumeThat(compiler).as("a JDK (not a JRE) runs the tests").isNotNull();
        Path sources = Files.createDirectories(cli.root.resolve("plugin-src/echo"));
        Path sourceFile = Files.writeString(sources.resolve(className + ".java"), source);
        Path lookupFile = Files.writeString(sources.resolve("EchoStoresLookup.java"), LOOKUP_SOURCE);
        Path classes = Files.createDirectories(cli.root.resolve("plugin-classes"));
        // the plugin builds on the contract, the in-memory provider and its toolkit base class: all from the host
        String api = Path.of(MemoryProviderFactory.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                + java.io.File.pathSeparator
                + Path.of(InMemoryMemoryProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                + java.io.File.pathSeparator
                + Path.of(dev.forge.memory.support.FacetedMemoryProvider.class.getProtectionDomain().getCodeSource()
                        .getLocation().toURI());
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int status = compiler.run(null, diagnostics, diagnostics, "-classpath", api, "-d", classes.toString(), "--release", "17",
                "-proc:none", sourceFile.toString(), lookupFile.toString());
        assertThat(status).as("compiling the plugin: " + diagnostics.toString(StandardCharsets.UTF_8)).isZero();

        Files.createDirectories(folder);
        Path jar = folder.resolve(jarName);
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            out.putNextEntry(new JarEntry("META-INF/services/" + MemoryProviderFactory.class.getName()));
            out.write(("echo." + className + "\n").getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
            // the class, its nested classes and the lookup
            try (var compiled = Files.list(classes.resolve("echo"))) {
                for (Path classFile : compiled.filter(f -> f.getFileName().toString().matches(
                        "(" + className + "|EchoStoresLookup)([.$].*)")).sorted().toList()) {
                    out.putNextEntry(new JarEntry("echo/" + classFile.getFileName()));
                    out.write(Files.readAllBytes(classFile));
                    out.closeEntry();
                }
            }
        }
        return jar;
    }

    @Test
    void a_plugin_jar_in_the_project_is_listed_and_usable_and_a_broken_jar_is_reported_by_name() throws Exception {
        Path plugins = cli.project.resolve(".forge/plugins");
        Path jar = buildPluginJar(plugins);
        Files.writeString(plugins.resolve("broken.jar"), "this is not a zip file");

        JsonNode listing = cli.ok("providers", "--json").json();
        List<String> names = new ArrayList<>();
        listing.path("providers").forEach(p -> names.add(p.path("name").asText()));
        assertThat(names).containsExactly("echo-plugin", "file", "hybrid", "in-memory", "markdown", "postgres", "relational", "sqlite", "vector");
        JsonNode echo = listing.path("providers").get(0);
        assertThat(echo.path("module").asText()).isEqualTo(jar.toString());
        assertThat(echo.path("description").asText()).isEqualTo("A test plugin over an in-memory store.");
        assertThat(listing.path("problems")).hasSize(1);
        assertThat(listing.path("problems").get(0).asText()).contains("broken.jar");

        String text = cli.ok("providers").out();
        assertThat(text).containsPattern("(?m)^echo-plugin\\s+\\(no optional capabilities\\)$")
                .contains("module: " + jar).contains("Problems:").contains("broken.jar");

        cli.ok("--memory-provider", "echo-plugin", "set", "greeting", "from a plugin");
        assertThat(EchoStores.STORES).as("the plugin's store, reached through the test class loader").containsKey(projectKey());
        assertThat(cli.ok("--memory-provider", "echo-plugin", "get", "greeting").out()).isEqualTo("from a plugin\n");
        assertThat(cli.run("get", "greeting").exitCode()).as("the default provider never saw it").isEqualTo(ExitCodes.NOT_FOUND);
    }

    @Test
    void a_plugin_jar_whose_service_file_names_a_missing_class_is_reported_by_the_jar_name() throws Exception {
        Path plugins = Files.createDirectories(cli.project.resolve(".forge/plugins"));
        Path jar = plugins.resolve("classless-plugin.jar");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            out.putNextEntry(new JarEntry("META-INF/services/" + MemoryProviderFactory.class.getName()));
            out.write("com.acme.memory.ClasslessFactory\n".getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }

        JsonNode listing = cli.ok("providers", "--json").json();

        List<String> problems = new ArrayList<>();
        listing.path("problems").forEach(p -> problems.add(p.asText()));
        assertThat(problems).as("the problems listed").anySatisfy(problem -> assertThat(problem)
                .contains(jar.toString()).contains("com.acme.memory.ClasslessFactory"));
        List<String> names = new ArrayList<>();
        listing.path("providers").forEach(p -> names.add(p.path("name").asText()));
        assertThat(names).as("the other providers still load").contains("file", "in-memory");
        assertThat(cli.ok("providers").out()).contains("Problems:").contains("classless-plugin.jar");
    }

    @Test
    void a_plugin_jar_in_forge_home_is_selectable_from_the_project_config() throws Exception {
        buildPluginJar(cli.forgeHome.resolve("plugins"));
        cli.projectConfig("memory:\n  provider: echo-plugin\n");
        cli.ok("set", "k", "v");
        assertThat(cli.ok("get", "k").out()).isEqualTo("v\n");
        assertThat(cli.ok("config", "--json").json().path("provider").asText()).isEqualTo("echo-plugin");
    }

    @Test
    void without_the_plugin_jar_the_name_is_unknown() {
        CliHarness.Result result = cli.run("--memory-provider", "echo-plugin", "get", "k");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(result.err()).contains("No memory provider named 'echo-plugin'").contains(".forge/plugins");
    }

    @Test
    void a_plugin_that_fails_to_link_exits_3_with_a_hint_instead_of_a_crash() throws Exception {
        buildPluginJar(cli.project.resolve(".forge/plugins"), "unlinkable.jar", "UnlinkableFactory", UNLINKABLE_SOURCE);
        CliHarness.Result result = cli.run("--memory-provider", "unlinkable", "get", "k");
        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(result.err()).contains("NoSuchMethodError").contains("another version of forge-memory")
                .doesNotContain("\tat ");
    }

    @Test
    void init_writes_the_settings_a_plugin_describes_and_the_plugin_opens_on_the_file_as_written() throws Exception {
        Path plugins = cli.project.resolve(".forge/plugins");
        buildPluginJar(plugins, "described-plugin.jar", "DescribedPluginFactory", DESCRIBED_SOURCE);
        Path configFile = cli.project.resolve(".forge/config.yaml");

        cli.ok("init", "--provider", "described-plugin");
        String yaml = Files.readString(configFile);
        assertThat(yaml).contains("  # A test plugin that describes its settings.\n").contains("  provider: described-plugin\n")
                .containsPattern("(?m)^    label: main +# required: the name of the store under the project$")
                .containsPattern("(?m)^    # tombstones: false +# true: delete and clear keep the history$");
        assertThat(cli.ok("config", "--json").json().path("config").path("label").asText()).isEqualTo("main");
        cli.ok("set", "k", "stored by the plugin");
        assertThat(EchoStores.STORES).as("the store the label names").containsKey(projectKey().resolve("main"));
        assertThat(cli.ok("get", "k").out()).isEqualTo("stored by the plugin\n");

        Files.writeString(configFile, yaml.replace("    label: main", "    # label: main"));
        CliHarness.Result missing = cli.run("get", "k");
        assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(missing.err()).contains("'label' is required");
    }

    @Test
    void init_for_a_plugin_that_describes_no_settings_points_to_its_documentation() throws Exception {
        buildPluginJar(cli.project.resolve(".forge/plugins"));
        cli.ok("init", "--provider", "echo-plugin");
        String yaml = Files.readString(cli.project.resolve(".forge/config.yaml"));
        assertThat(yaml).contains("  provider: echo-plugin\n")
                .contains("  # config:                # the 'echo-plugin' provider describes no settings: see its documentation\n");
        cli.ok("set", "k", "v");
        assertThat(cli.ok("get", "k").out()).isEqualTo("v\n");
    }
}
