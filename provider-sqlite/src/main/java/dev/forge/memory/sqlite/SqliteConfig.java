package dev.forge.memory.sqlite;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.spi.Setting;
import dev.forge.memory.support.ConfigValues;
import dev.forge.memory.support.SearchText;
import dev.forge.memory.support.TimeSpan;
import java.time.Duration;
import java.util.List;

/**
 * The settings of the {@code sqlite} provider, bound from its config block with
 * {@link dev.forge.memory.spi.ProviderConfig#bind}. Keys are written in {@code snake_case}; a missing key takes
 * its default, an unknown key is rejected.
 *
 * <pre>{@code
 * memory:
 *   provider: sqlite
 *   config:
 *     path: .forge/memory.db   # the database file; relative to the project directory; this is the default
 *     global_path: ${FORGE_HOME:-~/.forge}/memory.db  # GLOBAL memories, shared by every project; the default
 *     synchronous: full        # full (default) or normal; see SqliteMemoryProvider on durability
 *     busy_timeout: 5s         # how long a write waits for another process's write; default 5s
 *     search_fields: [key, tags] # searched besides the value: key, tags, metadata.<name>; the default
 * }</pre>
 *
 * @param path        the database file of PROJECT and SESSION memories; relative paths resolve against the context's
 *                    base directory, {@code ~} against the home directory
 * @param globalPath  the database file of GLOBAL memories, shared by every project of the user; {@code null} for
 *                    {@code $FORGE_HOME/memory.db} (else {@code ~/.forge/memory.db}); resolved like {@code path}. When it names the
 *                    same file as {@code path}, that one file holds everything
 * @param synchronous how hard each commit pushes its data to the disk: {@link Synchronous#FULL} survives a power
 *                    loss, {@link Synchronous#NORMAL} is faster but may lose the last commits to one
 * @param busyTimeout how long an operation waits for a lock held by another connection or process before it fails
 *                    with {@link dev.forge.memory.BackendUnavailableException}; zero fails at once
 * @param searchFields what keyword search finds besides the value ({@link SearchText}); default {@code [key, tags]};
 *                    a change rebuilds the keyword index when the provider opens
 */
public record SqliteConfig(String path, String globalPath, Synchronous synchronous, TimeSpan busyTimeout,
        SearchText searchFields) {

    /** The default {@code path}: {@code .forge/memory.db} under the project directory. */
    public static final String DEFAULT_PATH = ".forge/memory.db";

    /**
     * What {@code global_path} means when it is left out, written so that setting it to this changes nothing:
     * {@code $FORGE_HOME/memory.db}, else {@code ~/.forge/memory.db}, whatever the {@code path}.
     */
    public static final String DEFAULT_GLOBAL_PATH = "${FORGE_HOME:-~/.forge}/memory.db";

    /** The file name of the default {@code global_path} in the forge home. */
    public static final String GLOBAL_FILE_NAME = "memory.db";

    /** The default {@code busy_timeout}: five seconds. */
    public static final TimeSpan DEFAULT_BUSY_TIMEOUT = new TimeSpan(Duration.ofSeconds(5));

    /** Fills in the default of every missing setting and rejects a blank path and a timeout SQLite cannot take. */
    public SqliteConfig {
        if (path == null) {
            path = DEFAULT_PATH;
        } else if (path.isBlank()) {
            throw new ConfigurationException("'path' must not be blank: leave it out to use the project's " + DEFAULT_PATH + ".");
        }
        if (DEFAULT_GLOBAL_PATH.equals(globalPath)) {
            globalPath = null; // the template's expression for the default, as init writes it
        } else if (globalPath != null && globalPath.isBlank()) {
            throw new ConfigurationException("'global_path' must not be blank: leave it out to use $FORGE_HOME/"
                    + GLOBAL_FILE_NAME + ".");
        }
        if (synchronous == null) {
            synchronous = Synchronous.FULL;
        }
        if (busyTimeout == null) {
            busyTimeout = DEFAULT_BUSY_TIMEOUT;
        } else if (busyTimeout.toMillis() > Integer.MAX_VALUE) {
            throw new ConfigurationException("'busy_timeout' must be at most " + Integer.MAX_VALUE + "ms (about 24 days); it is "
                    + busyTimeout + ".");
        }
        if (searchFields == null) {
            searchFields = SearchText.DEFAULT;
        }
    }

    /** Every setting at its default. */
    public static SqliteConfig defaults() {
        return new SqliteConfig(null, null, null, null, null);
    }

    /** The settings given, {@code search_fields} at its default. */
    public SqliteConfig(String path, String globalPath, Synchronous synchronous, TimeSpan busyTimeout) {
        this(path, globalPath, synchronous, busyTimeout, null);
    }

    /** The settings of earlier releases, {@code global_path} at its default. */
    public SqliteConfig(String path, Synchronous synchronous, TimeSpan busyTimeout) {
        this(path, null, synchronous, busyTimeout);
    }

    /** The keys of this record, described for templates, at their defaults. */
    static List<Setting> settings() {
        SqliteConfig defaults = defaults();
        return List.of(
                Setting.of("path", "path", defaults.path(), "the database file of PROJECT and SESSION memories; "
                        + "relative to the project directory"),
                Setting.of("global_path", "path", DEFAULT_GLOBAL_PATH, "the database file of GLOBAL memories, shared "
                        + "by every project of the user"),
                Setting.of("synchronous", ConfigValues.choices(Synchronous.class), defaults.synchronous().id(),
                        "full: commits survive power loss; normal: faster, the last commits may roll back after a power "
                        + "loss (never after a process crash)"),
                Setting.of("busy_timeout", "duration", defaults.busyTimeout().toString(),
                        "how long a write waits for another process's lock"),
                SearchText.setting());
    }

    /** The SQLite {@code synchronous} setting every connection of the provider uses. */
    public enum Synchronous {
        /**
         * The WAL is forced to the disk at every commit: a committed write survives a process crash, an operating
         * system crash and a power loss (as far as the disk honours the flush).
         */
        FULL,
        /**
         * The WAL is forced to the disk only at checkpoints: a committed write survives a process crash, but the last
         * commits before an operating system crash or power loss may be rolled back. The database is never corrupted.
         */
        NORMAL;

        /**
         * Parses the config form, ignoring case: {@code full} or {@code normal}.
         *
         * @throws ConfigurationException for any other text, listing the allowed values
         */
        @JsonCreator
        public static Synchronous parse(String text) {
            return ConfigValues.parse(Synchronous.class, "synchronous", text);
        }

        /** The lower-case name config uses. */
        @JsonValue
        public String id() {
            return ConfigValues.id(this);
        }
    }
}
