package dev.forge.memory.config;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Where a configuration value came from, highest precedence first in {@link Kind}.
 *
 * @param kind the kind of source
 * @param file the file, for file sources
 * @param name a short description: the option or variable name, or the file's path
 */
public record ConfigSource(Kind kind, Optional<Path> file, String name) {

    /** The kinds of source, in order of precedence (highest first). */
    public enum Kind {
        /** A provider name given at run time ({@code --memory-provider NAME}). */
        OVERRIDE_OPTION,
        /** A config file given at run time ({@code --memory-config FILE}). */
        OVERRIDE_FILE,
        /** The {@code FORGE_MEMORY_PROVIDER} environment variable. */
        ENVIRONMENT,
        /** The project's {@code .forge/config.yaml}. */
        PROJECT_FILE,
        /** The user's {@code config.yaml} in {@code $FORGE_HOME} (default {@code ~/.forge}). */
        USER_FILE,
        /** The built-in default. */
        DEFAULT
    }

    /** A source that is a file. */
    static ConfigSource file(Kind kind, Path file) {
        return new ConfigSource(kind, Optional.of(file), file.toString());
    }

    /** A source that is not a file. */
    static ConfigSource named(Kind kind, String name) {
        return new ConfigSource(kind, Optional.empty(), name);
    }

    @Override
    public String toString() {
        return name;
    }
}
