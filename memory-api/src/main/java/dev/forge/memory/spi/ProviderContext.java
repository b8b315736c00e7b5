package dev.forge.memory.spi;

import dev.forge.memory.Keys;
import dev.forge.memory.MemoryProvider;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.UUID;

/**
 * Everything a provider is opened with: its config, the project and session it serves, the clock it
 * stamps entries with, the directory relative paths resolve against, and the registry a router uses to
 * open child providers.
 */
public final class ProviderContext {

    /** The longest project or session id. */
    public static final int MAX_ID_LENGTH = 128;

    private final ProviderConfig config;
    private final String projectId;
    private final String sessionId;
    private final Clock clock;
    private final Path baseDirectory;
    private final Path forgeHome;
    private final boolean openForReindex;
    private volatile ProviderRegistry registry;

    private ProviderContext(Builder b) {
        this.config = b.config;
        if (b.projectId == null) {
            throw new dev.forge.memory.ConfigurationException("A provider context needs a project id: PROJECT entries of "
                    + "different projects are kept apart by it. Set one with ProviderContext.builder().projectId(...).");
        }
        this.projectId = Keys.validate(b.projectId, "project id", MAX_ID_LENGTH);
        this.sessionId = Keys.validate(b.sessionId == null ? UUID.randomUUID().toString() : b.sessionId, "session id", MAX_ID_LENGTH);
        this.clock = b.clock;
        this.baseDirectory = b.baseDirectory.toAbsolutePath().normalize();
        this.forgeHome = (b.forgeHome != null ? b.forgeHome : defaultForgeHome()).toAbsolutePath().normalize();
        this.registry = b.registry;
        this.openForReindex = b.openForReindex;
    }

    private static Path defaultForgeHome() {
        String home = System.getenv("FORGE_HOME");
        return home != null && !home.isBlank() ? Path.of(home) : Path.of(System.getProperty("user.home"), ".forge");
    }

    /**
     * A builder: empty config, a random session id, the UTC system clock, the working directory, the forge home
     * from {@code $FORGE_HOME} (else {@code ~/.forge}), the factories on the class path. The project id has no
     * default and must be set.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this context's values. */
    public Builder toBuilder() {
        Builder builder = new Builder().config(config).projectId(projectId).sessionId(sessionId).clock(clock)
                .baseDirectory(baseDirectory).forgeHome(forgeHome).openForReindex(openForReindex);
        builder.registry = registry;
        return builder;
    }

    /** This context with another config; used by routers to open children. */
    public ProviderContext withConfig(ProviderConfig config) {
        return toBuilder().config(config).build();
    }

    /** The provider's own config block. */
    public ProviderConfig config() {
        return config;
    }

    /** The project this provider serves: PROJECT entries of other projects are invisible. */
    public String projectId() {
        return projectId;
    }

    /** The session this provider serves: SESSION entries of other sessions are invisible. */
    public String sessionId() {
        return sessionId;
    }

    /** The clock entries are stamped with. */
    public Clock clock() {
        return clock;
    }

    /** The absolute directory relative paths in the config resolve against (the project's {@code .forge} data root). */
    public Path baseDirectory() {
        return baseDirectory;
    }

    /**
     * The user's forge directory, shared by every project: where providers keep GLOBAL memories unless configured
     * otherwise. {@code $FORGE_HOME}, else {@code ~/.forge}, unless the builder set another.
     */
    public Path forgeHome() {
        return forgeHome;
    }

    /**
     * Whether the caller opens the provider in order to {@link dev.forge.memory.Reindexing#reindex rebuild its
     * indexes}: a provider whose index was built by another embedding model then opens instead of throwing
     * {@link dev.forge.memory.IndexModelMismatchException}, and refuses the searches that need vectors until the
     * rebuild is done. Off by default.
     */
    public boolean openForReindex() {
        return openForReindex;
    }

    /**
     * Resolves a configured path: absolute paths stay, {@code ~} and {@code ~/...} mean the user's home directory,
     * other relative paths resolve against {@link #baseDirectory()}.
     *
     * @throws dev.forge.memory.ConfigurationException if the text is not a path on this system
     */
    public Path resolve(String configuredPath) {
        try {
            if (configuredPath.equals("~") || configuredPath.startsWith("~/") || configuredPath.startsWith("~\\")) {
                return Path.of(System.getProperty("user.home")).resolve(configuredPath.substring(Math.min(2, configuredPath.length())))
                        .toAbsolutePath().normalize();
            }
            return baseDirectory.resolve(configuredPath).toAbsolutePath().normalize();
        } catch (java.nio.file.InvalidPathException e) {
            throw new dev.forge.memory.ConfigurationException(config.source() + ": a configured path is not valid here: "
                    + e.getReason() + ".", config.source(), config.path(), e);
        }
    }

    /** The registry of factories, for routers that open other providers; found on first use unless given. */
    public ProviderRegistry registry() {
        ProviderRegistry found = registry;
        if (found == null) {
            synchronized (this) {
                found = registry;
                if (found == null) {
                    found = ProviderRegistry.load();
                    registry = found;
                }
            }
        }
        return found;
    }

    /** Opens the provider named {@code name} with {@code config}, sharing this context's project, session and clock. */
    public MemoryProvider open(String name, ProviderConfig config) {
        return registry().open(name, withConfig(config));
    }

    @Override
    public String toString() {
        return "ProviderContext[project=" + projectId + ", session=" + sessionId + ", base=" + baseDirectory
                + ", forgeHome=" + forgeHome + "]";
    }

    /** Builds a {@link ProviderContext}. */
    public static final class Builder {
        private ProviderConfig config = ProviderConfig.empty();
        private String projectId;
        private String sessionId;
        private Clock clock = Clock.systemUTC();
        private Path baseDirectory = Path.of("");
        private Path forgeHome;
        private ProviderRegistry registry;
        private boolean openForReindex;

        private Builder() {
        }

        /** The provider's config block. */
        public Builder config(ProviderConfig config) {
            this.config = Objects.requireNonNull(config, "config");
            return this;
        }

        /** The project id: 1 to 128 characters, no control characters. */
        public Builder projectId(String projectId) {
            this.projectId = projectId;
            return this;
        }

        /** The session id: 1 to 128 characters, no control characters. */
        public Builder sessionId(String sessionId) {
            this.sessionId = sessionId;
            return this;
        }

        /** The clock. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** The directory relative paths resolve against. */
        public Builder baseDirectory(Path baseDirectory) {
            this.baseDirectory = Objects.requireNonNull(baseDirectory, "baseDirectory");
            return this;
        }

        /** The user's forge directory; see {@link ProviderContext#forgeHome()}. */
        public Builder forgeHome(Path forgeHome) {
            this.forgeHome = Objects.requireNonNull(forgeHome, "forgeHome");
            return this;
        }

        /** The registry; by default the factories found on the thread's context class loader, looked up on first use. */
        public Builder registry(ProviderRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "registry");
            return this;
        }

        /** Whether the provider is opened to be reindexed; see {@link ProviderContext#openForReindex()}. */
        public Builder openForReindex(boolean openForReindex) {
            this.openForReindex = openForReindex;
            return this;
        }

        /**
         * Builds the context.
         *
         * @throws dev.forge.memory.ConfigurationException if no project id was set
         * @throws dev.forge.memory.InvalidKeyException    if the project or session id is malformed
         */
        public ProviderContext build() {
            return new ProviderContext(this);
        }
    }
}
