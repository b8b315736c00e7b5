package dev.forge.memory.config;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.config.ConfigSource.Kind;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the memory provider a project's configuration selects.
 *
 * <p>Precedence, highest first: a provider named at run time ({@link Builder#provider}, the command line's
 * {@code --memory-provider}); a config file given at run time ({@link Builder#configFile}, {@code --memory-config});
 * the {@code FORGE_MEMORY_PROVIDER} environment variable; the project's {@code .forge/config.yaml}; the user's
 * {@code config.yaml} in {@code $FORGE_HOME} (default {@code ~/.forge}); the built-in default, {@code markdown}
 * under {@code .forge/memory} (or {@code file} there, with a logged notice, while the markdown provider is not on
 * the class path). The provider's settings come from the file that named it, or, when the name came from the
 * command line or the environment, from the highest-precedence file naming the same provider: switching provider
 * by name never feeds one provider another's settings.
 *
 * <p>The file format, variables, plugin folders and examples: docs/configuration.md.
 */
public final class Memories {

    /** The provider used when nothing is configured. */
    public static final String DEFAULT_PROVIDER = "markdown";
    /** The provider used by default while {@value #DEFAULT_PROVIDER} is not on the class path. */
    public static final String FALLBACK_PROVIDER = "file";
    /** The environment variable that selects a provider. */
    public static final String PROVIDER_VARIABLE = "FORGE_MEMORY_PROVIDER";
    /** The environment variable naming the user's forge directory (default {@code ~/.forge}). */
    public static final String HOME_VARIABLE = "FORGE_HOME";
    /** The project's config file, relative to the project directory. */
    public static final String PROJECT_CONFIG = ".forge/config.yaml";
    /** The project's plugin folder, relative to the project directory. */
    public static final String PROJECT_PLUGINS = ".forge/plugins";

    private static final Logger LOG = LoggerFactory.getLogger(Memories.class);

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text;
    }

    private Memories() {
    }

    /**
     * Opens the provider configured for {@code projectDirectory}, for a new session.
     *
     * @throws ConfigurationException                       if the configuration is invalid or names an unknown provider
     * @throws dev.forge.memory.BackendUnavailableException if the backend cannot be reached
     */
    public static MemoryProvider open(Path projectDirectory) {
        return builder().projectDirectory(projectDirectory).open();
    }

    /** A builder for explicit overrides, session id, environment and more. */
    public static Builder builder() {
        return new Builder();
    }

    /** Resolves configuration and opens providers; see {@link Memories}. */
    public static final class Builder {
        private Path projectDirectory = Path.of("");
        private String provider;
        private Path configFile;
        private String sessionId;
        private Function<String, String> environment = System::getenv;
        private Path userHome = Path.of(System.getProperty("user.home"));
        private Clock clock = Clock.systemUTC();
        private ClassLoader classLoader;
        private boolean plugins = true;
        private boolean openForReindex;

        private Builder() {
        }

        /** The project directory (default: the working directory). */
        public Builder projectDirectory(Path projectDirectory) {
            this.projectDirectory = Objects.requireNonNull(projectDirectory, "projectDirectory");
            return this;
        }

        /** A provider name that overrides every file and the environment ({@code --memory-provider}). */
        public Builder provider(String provider) {
            this.provider = provider;
            return this;
        }

        /**
         * A config file that overrides the project's and the user's ({@code --memory-config}); it must exist. A
         * relative path resolves against the project directory.
         */
        public Builder configFile(Path configFile) {
            this.configFile = configFile;
            return this;
        }

        /** The session id (default: a new random one). */
        public Builder sessionId(String sessionId) {
            this.sessionId = sessionId;
            return this;
        }

        /** The environment to read {@code FORGE_MEMORY_PROVIDER}, {@code FORGE_HOME} and {@code ${VAR}}s from. */
        public Builder environment(Map<String, String> environment) {
            Map<String, String> copy = Map.copyOf(environment);
            this.environment = copy::get;
            return this;
        }

        /** The user's home directory, whose {@code .forge} is used unless {@code FORGE_HOME} is set. */
        public Builder userHome(Path userHome) {
            this.userHome = Objects.requireNonNull(userHome, "userHome");
            return this;
        }

        /** The clock entries are stamped with. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** The class loader providers are found with (default: the thread's context class loader). */
        public Builder classLoader(ClassLoader classLoader) {
            this.classLoader = Objects.requireNonNull(classLoader, "classLoader");
            return this;
        }

        /** Whether to load provider jars from the plugin folders (default true). */
        public Builder plugins(boolean plugins) {
            this.plugins = plugins;
            return this;
        }

        /**
         * Whether the provider is opened to be reindexed ({@code forge-memory reindex}); see
         * {@link ProviderContext#openForReindex()}. Default false.
         */
        public Builder openForReindex(boolean openForReindex) {
            this.openForReindex = openForReindex;
            return this;
        }

        /** The user's forge directory: {@code $FORGE_HOME}, else {@code ~/.forge}. */
        public Path forgeHome() {
            String home = environment.apply(HOME_VARIABLE);
            return home != null && !home.isBlank() ? Path.of(home) : userHome.resolve(".forge");
        }

        private Path project() {
            return projectDirectory.toAbsolutePath().normalize();
        }

        /** The plugin folders: the project's {@code .forge/plugins}, then {@code $FORGE_HOME/plugins}. */
        public List<Path> pluginFolders() {
            return List.of(project().resolve(PROJECT_PLUGINS), forgeHome().resolve("plugins"));
        }

        /** Loads the plugin jars (none when plugins are off). */
        public Plugins loadPlugins() {
            ClassLoader parent = classLoader != null ? classLoader
                    : Thread.currentThread().getContextClassLoader() != null ? Thread.currentThread().getContextClassLoader()
                    : Memories.class.getClassLoader();
            return plugins ? Plugins.load(parent, pluginFolders()) : new Plugins(parent, List.of(), List.of());
        }

        /** The registry of the factories on the class path and in the plugin folders. */
        public ProviderRegistry registry() {
            return registry(loadPlugins());
        }

        private static ProviderRegistry registry(Plugins loaded) {
            return ProviderRegistry.load(loaded.classLoader()).withProblems(loaded.problems());
        }

        /**
         * Resolves which provider to open, with which settings, for which project.
         *
         * @param registry the factories available, used only to fall back from the default provider
         * @throws ConfigurationException for a missing override file, malformed YAML, unknown keys, unset variables
         */
        public ResolvedConfig resolve(ProviderRegistry registry) {
            Path project = project();
            List<ConfigFile> files = new ArrayList<>();
            List<ConfigSource> fileSources = new ArrayList<>();
            if (configFile != null) {
                Path file = project.resolve(configFile).normalize();
                ConfigFile read = ConfigFile.read(file, environment).orElseThrow(() -> new ConfigurationException(
                        "The config file " + file + " given with --memory-config does not exist.", file.toString(), null, null));
                files.add(read);
                fileSources.add(ConfigSource.file(Kind.OVERRIDE_FILE, file));
            }
            Path projectFile = project.resolve(PROJECT_CONFIG);
            ConfigFile.read(projectFile, environment).ifPresent(f -> {
                files.add(f);
                fileSources.add(ConfigSource.file(Kind.PROJECT_FILE, projectFile));
            });
            Path userFile = forgeHome().resolve("config.yaml");
            ConfigFile.read(userFile, environment).ifPresent(f -> {
                files.add(f);
                fileSources.add(ConfigSource.file(Kind.USER_FILE, userFile));
            });
            boolean namedAtRunTime = provider != null || blankToNull(environment.apply(PROVIDER_VARIABLE)) != null;
            for (int i = 0; i < files.size(); i++) {
                boolean overrideFileForNamedProvider = i == 0 && configFile != null && namedAtRunTime;
                if (files.get(i).provider().isEmpty() && !files.get(i).rawConfig().isEmpty() && !overrideFileForNamedProvider) {
                    throw new ConfigurationException(fileSources.get(i) + ": 'memory.config' is given without "
                            + "'memory.provider'; say which provider these settings are for.",
                            fileSources.get(i).name(), "memory.provider", null);
                }
            }

            String name;
            ConfigSource nameSource;
            int fileIndex = -1;
            if (provider != null) {
                if (provider.isBlank()) {
                    throw new ConfigurationException("The provider name given at run time is empty; name a provider "
                            + "(see 'forge-memory providers') or leave the option out.");
                }
                name = provider.trim();
                nameSource = ConfigSource.named(Kind.OVERRIDE_OPTION, "--memory-provider");
            } else if (configFile != null && files.get(0).provider().isPresent()) {
                name = files.get(0).provider().get();
                nameSource = fileSources.get(0);
                fileIndex = 0;
            } else if (blankToNull(environment.apply(PROVIDER_VARIABLE)) != null) {
                name = environment.apply(PROVIDER_VARIABLE).trim();
                nameSource = ConfigSource.named(Kind.ENVIRONMENT, PROVIDER_VARIABLE);
            } else {
                name = null;
                nameSource = null;
                for (int i = 0; i < files.size(); i++) {
                    if (files.get(i).provider().isPresent()) {
                        name = files.get(i).provider().get();
                        nameSource = fileSources.get(i);
                        fileIndex = i;
                        break;
                    }
                }
                if (name == null) {
                    boolean markdown = registry.names().contains(DEFAULT_PROVIDER);
                    name = markdown ? DEFAULT_PROVIDER : FALLBACK_PROVIDER;
                    nameSource = ConfigSource.named(Kind.DEFAULT, markdown ? "built-in default"
                            : "built-in default (" + DEFAULT_PROVIDER + " not installed; using " + FALLBACK_PROVIDER + ")");
                    if (!markdown) {
                        LOG.info("The default '{}' memory provider is not on the class path; using the '{}' provider under .forge/memory.",
                                DEFAULT_PROVIDER, FALLBACK_PROVIDER);
                    }
                }
            }
            if (fileIndex < 0 && configFile != null && files.get(0).provider().isEmpty() && !files.get(0).rawConfig().isEmpty()) {
                fileIndex = 0;
            }
            if (fileIndex < 0) {
                for (int i = 0; i < files.size(); i++) {
                    if (files.get(i).provider().filter(name::equals).isPresent()) {
                        fileIndex = i;
                        break;
                    }
                }
            }
            ProviderConfig settings;
            ConfigSource settingsSource;
            Set<String> secretFields = new HashSet<>();
            if (fileIndex >= 0) {
                settingsSource = fileSources.get(fileIndex);
                settings = ProviderConfig.of(files.get(fileIndex).settings(environment, secretFields), settingsSource.name(), "memory.config")
                        .withSecretPaths(secretFields);
            } else {
                settingsSource = ConfigSource.named(Kind.DEFAULT, "provider defaults");
                settings = ProviderConfig.empty();
            }

            String projectId = project.getFileName() == null ? "root" : project.getFileName().toString();
            ConfigSource projectIdSource = ConfigSource.named(Kind.DEFAULT, "project directory name");
            for (int i = 0; i < files.size(); i++) {
                Optional<String> configured = files.get(i).project();
                if (configured.isPresent() && fileSources.get(i).kind() != Kind.USER_FILE) {
                    projectId = configured.get();
                    projectIdSource = fileSources.get(i);
                    break;
                }
            }
            List<Path> read = fileSources.stream().map(s -> s.file().orElseThrow()).toList();
            return new ResolvedConfig(name, nameSource, settings, settingsSource, projectId, projectIdSource, project, read, secretFields);
        }

        /** The context a provider is opened with for {@code resolved}. */
        public ProviderContext context(ResolvedConfig resolved, ProviderRegistry registry) {
            return ProviderContext.builder()
                    .config(resolved.config())
                    .projectId(resolved.projectId())
                    .sessionId(sessionId)
                    .clock(clock)
                    .baseDirectory(resolved.projectDirectory())
                    .forgeHome(forgeHome())
                    .registry(registry)
                    .openForReindex(openForReindex)
                    .build();
        }

        /**
         * Resolves the configuration and opens the provider it selects.
         *
         * @throws ConfigurationException                       for invalid configuration or an unknown provider
         * @throws dev.forge.memory.BackendUnavailableException if the backend cannot be reached
         */
        public MemoryProvider open() {
            return open(this::resolve);
        }

        /**
         * Opens the provider of the configuration {@code resolver} makes, with this builder's plugins, session, clock and
         * home: for a host that has its settings from elsewhere than the config files (an application's own properties).
         *
         * @param resolver the configuration, given the registry of the providers found (plugins included)
         * @throws ConfigurationException                       for invalid configuration or an unknown provider
         * @throws dev.forge.memory.BackendUnavailableException if the backend cannot be reached
         */
        public MemoryProvider open(Function<ProviderRegistry, ResolvedConfig> resolver) {
            Plugins loaded = loadPlugins();
            ProviderRegistry registry = registry(loaded);
            ResolvedConfig resolved = resolver.apply(registry);
            ProviderContext context = context(resolved, registry);
            // A plugin's own libraries (JDBC drivers, ServiceLoader lookups) look in the context class loader.
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(loaded.classLoader());
            try {
                return registry.open(resolved.provider(), context);
            } finally {
                thread.setContextClassLoader(previous);
            }
        }
    }
}
