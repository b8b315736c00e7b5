package dev.forge.memory.file;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.spi.Setting;
import dev.forge.memory.support.ByteSize;
import dev.forge.memory.support.ConfigValues;
import dev.forge.memory.support.SearchText;
import java.util.List;

/**
 * The settings of the {@code file} provider, bound from its config block with
 * {@link dev.forge.memory.spi.ProviderConfig#bind}. Keys are written in {@code snake_case}; a missing key takes
 * its default, an unknown key is rejected.
 *
 * <pre>{@code
 * memory:
 *   provider: file
 *   config:
 *     base_path: .forge/memory # relative to the project directory; this is the default
 *     compression: gzip        # none (default) or gzip; true / false mean gzip / none
 *     max_file_size: 8MB       # the largest encoded entry file; default 8MB
 *     fsync: true              # force every write to the disk before it counts; default true
 *     global_path: ~/.forge/file # GLOBAL memories, shared by every project; default $FORGE_HOME/file
 *     search_fields: [key, tags] # what keyword search finds besides the value: key, tags, metadata.<name>
 * }</pre>
 *
 * @param basePath    the store's directory; relative paths resolve against the context's base directory
 * @param compression how entry files are encoded
 * @param maxFileSize the largest entry file, after encoding and compression; values are also capped at it, and
 *                    below the default a value within that cap can still be refused when its encoded file
 *                    (JSON escaping, tags, metadata) is larger
 * @param fsync       whether writes are forced to the disk (and so survive a power loss, not just a crash)
 * @param globalPath  the store directory of GLOBAL memories, shared by every project; relative paths resolve like
 *                    {@code base_path}; {@code null} for the default, {@code file} under the forge home
 * @param searchFields what keyword search finds besides the value ({@link SearchText}); default {@code [key, tags]}
 */
public record FileConfig(String basePath, Compression compression, ByteSize maxFileSize, Boolean fsync, String globalPath,
        SearchText searchFields) {

    /** The default {@code base_path}: {@code .forge/memory} under the project directory (the context's base directory). */
    public static final String DEFAULT_BASE_PATH = ".forge/memory";

    /**
     * The default {@code max_file_size}: 8 MiB, so that every value within the default 1 MiB value limit fits
     * even when JSON escapes each of its characters to six bytes, with the largest tags and metadata beside it.
     */
    public static final ByteSize DEFAULT_MAX_FILE_SIZE = ByteSize.ofBytes(8L * 1024 * 1024);

    /**
     * What {@code global_path} means when it is left out, written so that setting it to this changes nothing:
     * {@code $FORGE_HOME/file}, else {@code ~/.forge/file} (a directory of its own: markdown's is {@code memory}).
     */
    public static final String DEFAULT_GLOBAL_PATH = "${FORGE_HOME:-~/.forge}/file";

    /** Fills in the default of every missing setting and rejects a blank {@code base_path} or {@code global_path}. */
    public FileConfig {
        if (basePath == null) {
            basePath = DEFAULT_BASE_PATH;
        } else if (basePath.isBlank()) {
            throw new ConfigurationException("'base_path' must not be blank: leave it out to use the project's memory directory.");
        }
        if (compression == null) {
            compression = Compression.NONE;
        }
        if (maxFileSize == null) {
            maxFileSize = DEFAULT_MAX_FILE_SIZE;
        }
        if (fsync == null) {
            fsync = Boolean.TRUE;
        }
        if (globalPath != null && globalPath.isBlank()) {
            throw new ConfigurationException("'global_path' must not be blank: leave it out to use $FORGE_HOME/file.");
        }
        if (searchFields == null) {
            searchFields = SearchText.DEFAULT;
        }
    }

    /** The settings given, {@code search_fields} at its default. */
    public FileConfig(String basePath, Compression compression, ByteSize maxFileSize, Boolean fsync, String globalPath) {
        this(basePath, compression, maxFileSize, fsync, globalPath, null);
    }

    /** The settings with the default {@code global_path}. */
    public FileConfig(String basePath, Compression compression, ByteSize maxFileSize, Boolean fsync) {
        this(basePath, compression, maxFileSize, fsync, null);
    }

    /** Every setting at its default. */
    public static FileConfig defaults() {
        return new FileConfig(null, null, null, null, null, null);
    }

    /** The keys of this record, described for templates, at their defaults. */
    static List<Setting> settings() {
        FileConfig defaults = defaults();
        return List.of(
                Setting.of("base_path", "path", defaults.basePath(),
                        "the store directory; relative paths resolve against the project directory"),
                Setting.of("compression", ConfigValues.choices(Compression.class), defaults.compression().id(),
                        "none (.json files) or gzip (.json.gz); both are always read"),
                Setting.of("max_file_size", "size", ConfigValues.size(defaults.maxFileSize()),
                        "the largest entry file; values are capped at min(1MB, this)"),
                Setting.of("fsync", "boolean", String.valueOf(defaults.fsync()), "force each write to disk before it counts"),
                Setting.of("global_path", "path", DEFAULT_GLOBAL_PATH, "GLOBAL memories, shared by every project: "
                        + "$FORGE_HOME/file, else ~/.forge/file; relative paths resolve like base_path"),
                SearchText.setting());
    }

    /** How entry files are encoded on disk. */
    public enum Compression {
        /** Plain UTF-8 JSON, file names ending in {@code .json}. */
        NONE,
        /** Gzip-compressed JSON, file names ending in {@code .json.gz}. */
        GZIP;

        /**
         * Parses the config form, ignoring case: {@code none} or {@code gzip}; {@code true} and {@code false} (seed
         * 004's example writes {@code compression: true}) read as {@code gzip} and {@code none}.
         *
         * @throws ConfigurationException for any other text
         */
        @JsonCreator
        public static Compression parse(String text) {
            String trimmed = text == null ? "" : text.trim();
            if (trimmed.equalsIgnoreCase("true")) {
                return GZIP;
            }
            if (trimmed.equalsIgnoreCase("false")) {
                return NONE;
            }
            return ConfigValues.parse(Compression.class, "compression", text);
        }

        /** The lower-case name config uses. */
        @JsonValue
        public String id() {
            return ConfigValues.id(this);
        }
    }
}
