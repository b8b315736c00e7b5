package dev.forge.memory.markdown;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.spi.Setting;
import dev.forge.memory.support.ByteSize;
import dev.forge.memory.support.ConfigValues;
import dev.forge.memory.support.SearchText;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The settings of the {@code markdown} provider, bound from its config block with
 * {@link dev.forge.memory.spi.ProviderConfig#bind}. Keys are written in {@code snake_case}; a missing key takes
 * its default, an unknown key is rejected.
 *
 * <p>The keys, their defaults and examples: docs/providers/markdown.md.
 *
 * @param path        the directory of PROJECT memories; relative paths resolve against the project directory, and
 *                    {@code {project}} is replaced by the project id
 * @param globalPath  the directory of GLOBAL memories, shared by every project; {@code null} for the default
 * @param maxFileSize the largest memory file read, 64KB to 256MB; a larger one (a person's mistake, or not a memory)
 *                    is skipped
 * @param fsync       whether writes are forced to the disk (and so survive a power loss, not just a crash)
 * @param layout      how the PROJECT directory is laid out; see {@link Layout}
 * @param git         whether the project and the global directory are each a git repository, with one commit per
 *                    write (see {@link MarkdownMemoryProvider#gitStatus()})
 * @param gitAuthor   the author and committer of those commits, {@code Name <email>}; {@code null} for
 *                    {@value #DEFAULT_GIT_AUTHOR}
 * @param searchFields what keyword search finds besides the value ({@link SearchText}); default {@code [key, tags]}
 */
public record MarkdownConfig(String path, String globalPath, ByteSize maxFileSize, Boolean fsync, Layout layout,
        Boolean git, String gitAuthor, SearchText searchFields) {

    /** The default {@code path}: {@code .forge/memory} under the project directory. */
    public static final String DEFAULT_PATH = ".forge/memory";

    /** The placeholder in {@code path} replaced by the project id. */
    public static final String PROJECT_PLACEHOLDER = "{project}";

    /** The default {@code max_file_size}: 8 MiB, well above the largest value (1 MiB) with its front-matter. */
    public static final ByteSize DEFAULT_MAX_FILE_SIZE = ByteSize.ofBytes(8L * 1024 * 1024);

    /** The largest {@code max_file_size}: files are read whole, and a memory is text an agent reads. */
    public static final ByteSize LARGEST_MAX_FILE_SIZE = ByteSize.ofBytes(256L * 1024 * 1024);

    /**
     * What {@code global_path} means when it is left out, written so that setting it to this changes nothing:
     * {@code $FORGE_HOME/memory}, else {@code ~/.forge/memory}.
     */
    public static final String DEFAULT_GLOBAL_PATH = "${FORGE_HOME:-~/.forge}/memory";

    /** The default {@code git_author}. */
    public static final String DEFAULT_GIT_AUTHOR = "forge-memory <forge-memory@localhost>";

    private static final Pattern AUTHOR = Pattern.compile("([^<>\\n]*[^<>\\s])\\s*<([^<>\\s]+)>");

    /** Fills in the default of every missing setting and rejects blank paths and a tiny {@code max_file_size}. */
    public MarkdownConfig {
        if (path == null) {
            path = DEFAULT_PATH;
        } else if (path.isBlank()) {
            throw new ConfigurationException("'path' must not be blank: leave it out to use the project's .forge/memory.");
        }
        if (globalPath != null && globalPath.isBlank()) {
            throw new ConfigurationException("'global_path' must not be blank: leave it out to use $FORGE_HOME/memory.");
        }
        if (maxFileSize == null) {
            maxFileSize = DEFAULT_MAX_FILE_SIZE;
        } else if (maxFileSize.bytes() < 64 * 1024 || maxFileSize.bytes() > LARGEST_MAX_FILE_SIZE.bytes()) {
            throw new ConfigurationException("'max_file_size' must be between 64KB (so that ordinary memories fit) and "
                    + "256MB (files are read whole into memory); it is " + maxFileSize.bytes() + " bytes.");
        }
        if (fsync == null) {
            fsync = Boolean.TRUE;
        }
        if (layout == null) {
            layout = Layout.STANDARD;
        }
        if (git == null) {
            git = Boolean.FALSE;
        }
        if (gitAuthor == null) {
            gitAuthor = DEFAULT_GIT_AUTHOR;
        } else if (!AUTHOR.matcher(gitAuthor.strip()).matches()) {
            throw new ConfigurationException("'git_author' must be a name and an email address in angle brackets, such "
                    + "as 'Ann <ann@example.org>'; leave it out for '" + DEFAULT_GIT_AUTHOR + "'.");
        } else {
            gitAuthor = gitAuthor.strip();
        }
        if (searchFields == null) {
            searchFields = SearchText.DEFAULT;
        }
    }

    /** The settings given, {@code search_fields} at its default. */
    public MarkdownConfig(String path, String globalPath, ByteSize maxFileSize, Boolean fsync, Layout layout,
            Boolean git, String gitAuthor) {
        this(path, globalPath, maxFileSize, fsync, layout, git, gitAuthor, null);
    }

    /** The settings given, in the {@linkplain Layout#STANDARD standard} layout, git off. */
    public MarkdownConfig(String path, String globalPath, ByteSize maxFileSize, Boolean fsync) {
        this(path, globalPath, maxFileSize, fsync, null, null, null);
    }

    /** The settings given, in {@code layout}, git off. */
    public MarkdownConfig(String path, String globalPath, ByteSize maxFileSize, Boolean fsync, Layout layout) {
        this(path, globalPath, maxFileSize, fsync, layout, null, null);
    }

    /** This config with {@code git} on or off. */
    public MarkdownConfig withGit(boolean on) {
        return new MarkdownConfig(path, globalPath, maxFileSize, fsync, layout, on, gitAuthor, searchFields);
    }

    /** The name in {@code git_author}. */
    String gitAuthorName() {
        return author().group(1);
    }

    /** The email address in {@code git_author}. */
    String gitAuthorEmail() {
        return author().group(2);
    }

    private Matcher author() {
        Matcher matcher = AUTHOR.matcher(gitAuthor);
        if (!matcher.matches()) {
            throw new IllegalStateException("checked by the constructor");
        }
        return matcher;
    }

    /** Every setting at its default. */
    public static MarkdownConfig defaults() {
        return new MarkdownConfig(null, null, null, null, null, null, null, null);
    }

    /**
     * The keys of this record, described for templates, at their defaults; {@code global_path}'s is computed when the
     * provider opens, so it is shown as the expression that means the same.
     */
    static List<Setting> settings() {
        MarkdownConfig defaults = defaults();
        return List.of(
                Setting.of("path", "path", defaults.path(), "PROJECT memories, SESSION ones under its session/; "
                        + "relative to the project directory; " + PROJECT_PLACEHOLDER + " becomes the project id"),
                Setting.of("global_path", "path", DEFAULT_GLOBAL_PATH, "GLOBAL memories, shared by every project: "
                        + "$FORGE_HOME/memory, else ~/.forge/memory"),
                Setting.of("max_file_size", "size", ConfigValues.size(defaults.maxFileSize()),
                        "larger memory files are skipped and listed by 'forge-memory doctor'; 64KB to 256MB"),
                Setting.of("fsync", "boolean", String.valueOf(defaults.fsync()), "force each write to disk before it counts"),
                Setting.of("layout", ConfigValues.choices(Layout.class), defaults.layout().id(), "standard, or layered: "
                        + "PROJECT memories at the Forge plugin's paths (projects/<project>/<file>.md, skills/..., "
                        + "commands/..., agents/...)"),
                Setting.of("git", "boolean", String.valueOf(defaults.git()),
                        "true: each memory directory a git repository, one commit per write"),
                Setting.of("git_author", "string", defaults.gitAuthor(), "author and committer of those commits"),
                SearchText.setting());
    }

    /** How the PROJECT directory ({@code path}) is laid out. GLOBAL memories always use the standard layout. */
    public enum Layout {
        /** Every version a {@code mem_<uuid>.md} file in {@code path}; SESSION memories in {@code path/session/<id>}. */
        STANDARD,
        /**
         * The Forge plugin's memory directory: the current value of a key such as
         * {@code skills/python-code-review/my-api/review_history} is the file {@code <path>/<key>.md}, byte for byte,
         * and the version files live in {@code <path>/.forge/versions} (SESSION ones in its {@code session/<id>}).
         */
        LAYERED;

        /**
         * Parses the config form, ignoring case: {@code standard} or {@code layered}.
         *
         * @throws ConfigurationException for any other text
         */
        @JsonCreator
        public static Layout parse(String text) {
            return ConfigValues.parse(Layout.class, "layout", text);
        }

        /** The lower-case name config uses. */
        @JsonValue
        public String id() {
            return ConfigValues.id(this);
        }
    }
}
