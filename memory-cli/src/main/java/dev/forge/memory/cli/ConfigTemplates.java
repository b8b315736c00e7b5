package dev.forge.memory.cli;

import dev.forge.memory.config.Memories;
import dev.forge.memory.file.FileConfig;
import dev.forge.memory.file.FileMemoryProvider;
import dev.forge.memory.hybrid.HybridConfig;
import dev.forge.memory.hybrid.HybridMemoryProvider;
import dev.forge.memory.inmemory.InMemoryMemoryProvider;
import dev.forge.memory.markdown.MarkdownConfig;
import dev.forge.memory.markdown.MarkdownMemoryProvider;
import dev.forge.memory.sqlite.SqliteConfig;
import dev.forge.memory.sqlite.SqliteMemoryProvider;
import dev.forge.memory.vector.VectorConfig;
import dev.forge.memory.vector.VectorMemoryProvider;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The commented {@code .forge/config.yaml} that {@code init} writes. The SPI does not describe a provider's
 * settings, so the settings of the bundled providers are listed here, their defaults taken from the providers'
 * own config records; a provider not listed gets a pointer to its documentation.
 */
final class ConfigTemplates {

    /** One setting: its key, its default as YAML, what it means. */
    record Setting(String key, String defaultValue, String meaning) {
    }

    /**
     * What {@code global_path} means when it is left out, written so that uncommenting it changes nothing:
     * {@code $FORGE_HOME/memory}, else {@code ~/.forge/memory}.
     */
    static final String DEFAULT_GLOBAL_PATH = "${" + Memories.HOME_VARIABLE + ":-~/.forge}/memory";

    private static final Map<String, List<Setting>> SETTINGS = Map.of(
            MarkdownMemoryProvider.NAME, markdownSettings(),
            SqliteMemoryProvider.NAME, sqliteSettings(),
            FileMemoryProvider.NAME, fileSettings(),
            VectorMemoryProvider.NAME, vectorSettings(),
            InMemoryMemoryProvider.NAME, List.of(new Setting("tombstones", "false",
                    "true: delete and clear keep the history, as markdown and sqlite do")));

    private ConfigTemplates() {
    }

    private static List<Setting> markdownSettings() {
        MarkdownConfig defaults = MarkdownConfig.defaults();
        return List.of(
                new Setting("path", defaults.path(), "PROJECT memories, SESSION ones under its session/; relative to "
                        + "the project directory; " + MarkdownConfig.PROJECT_PLACEHOLDER + " becomes the project id"),
                // The record's default is "not set", computed from the environment when the provider opens.
                new Setting("global_path", DEFAULT_GLOBAL_PATH, "GLOBAL memories, shared by every project: "
                        + "$FORGE_HOME/memory, else ~/.forge/memory"),
                new Setting("max_file_size", size(defaults.maxFileSize().bytes()),
                        "larger memory files are skipped and listed by 'forge-memory doctor'; 64KB to 256MB"),
                new Setting("fsync", String.valueOf(defaults.fsync()), "force each write to disk before it counts"),
                new Setting("layout", defaults.layout().id(), "standard, or layered: PROJECT memories at the Forge "
                        + "plugin's paths (projects/<project>/<file>.md, skills/..., commands/..., agents/...)"),
                new Setting("git", String.valueOf(defaults.git()), "true: each memory directory a git repository, "
                        + "one commit per write"),
                new Setting("git_author", defaults.gitAuthor(), "author and committer of those commits"));
    }

    private static List<Setting> sqliteSettings() {
        SqliteConfig defaults = SqliteConfig.defaults();
        return List.of(
                new Setting("path", defaults.path(), "the database file; relative to the project directory; point "
                        + "several projects at one file to share GLOBAL memories"),
                new Setting("synchronous", defaults.synchronous().id(), "full: commits survive power loss; normal: "
                        + "faster, the last commits may roll back after a power loss (never after a process crash)"),
                new Setting("busy_timeout", defaults.busyTimeout().duration().toMillis() + "ms",
                        "how long a write waits for another process's lock"));
    }

    private static List<Setting> fileSettings() {
        FileConfig defaults = FileConfig.defaults();
        return List.of(
                new Setting("base_path", defaults.basePath(),
                        "the store directory; relative paths resolve against the project directory"),
                new Setting("compression", defaults.compression().id(), "none (.json files) or gzip (.json.gz); both are always read"),
                new Setting("max_file_size", size(defaults.maxFileSize().bytes()),
                        "the largest entry file; values are capped at min(1MB, this)"),
                new Setting("fsync", String.valueOf(defaults.fsync()), "force each write to disk before it counts"));
    }

    private static List<Setting> vectorSettings() {
        VectorConfig defaults = VectorConfig.defaults();
        return List.of(
                new Setting("path", defaults.path(), "the Lucene index directory; relative to the project directory; "
                        + "one process at a time"),
                new Setting("embedding", "{ model: " + VectorConfig.DEFAULT_MODEL + " }", "the embedding model and its "
                        + "settings: minilm (local), hashing (lexical), openai (url, remote_model, api_key); after a "
                        + "change run 'forge-memory reindex'"),
                new Setting("rrf_k", String.valueOf(defaults.rrfK()), "the rank constant of hybrid fusion"),
                new Setting("keyword_weight", String.valueOf(defaults.keywordWeight()),
                        "the keyword ranking's weight in hybrid fusion (semantic: 1); 1 is plain reciprocal rank fusion"),
                new Setting("overfetch", String.valueOf(defaults.overfetch()),
                        "HNSW is asked for limit x overfetch neighbours"),
                new Setting("exact_limit", String.valueOf(defaults.exactLimit()),
                        "at most this many filtered candidates are scored exactly instead of through HNSW"));
    }

    /** The settings of a bundled provider, if it is one this tool knows. */
    static Optional<List<Setting>> settings(String provider) {
        return Optional.ofNullable(SETTINGS.get(provider));
    }

    /**
     * The hybrid router's block: it has no usable defaults (the storage is required), so the template names a working
     * set of children (sqlite storage, vector search) and shows the optional blocks, commented out, at their defaults.
     */
    private static String hybridConfig() {
        HybridConfig.Cache cache = HybridConfig.Cache.defaults();
        HybridConfig.Outbox outbox = HybridConfig.Outbox.defaults();
        HybridConfig.Fusion fusion = HybridConfig.Fusion.defaults();
        return "  config:\n"
                + "    storage: { provider: sqlite }   # required: the provider that holds the entries; its settings go beside 'provider'\n"
                + "    search: { provider: vector }    # optional: serves the searches it has the mode for (local MiniLM model)\n"
                + "    # relationships: { provider: graph, url: \"bolt://localhost:7687\", username: neo4j, password: \"${NEO4J_PASSWORD}\" }\n"
                + "    # cache: { ttl: " + cache.ttl().toMillis() + "ms, max_entries: " + cache.maxEntries()
                + " }   # 0 for either turns the cache off\n"
                + "    # outbox: { path: " + outbox.path() + ", retry_interval: " + outbox.retryInterval().toMillis()
                + "ms }   # where updates a child missed wait\n"
                + "    # fusion: { rrf_k: " + fusion.rrfK() + ", keyword_weight: " + fusion.keywordWeight()
                + " }   # HYBRID search: weighted reciprocal rank fusion\n";
    }

    /** {@code 8MB} for 8 MiB: the largest unit that divides the size exactly. */
    static String size(long bytes) {
        String[] units = {"GB", "MB", "KB"};
        long[] factors = {1L << 30, 1L << 20, 1L << 10};
        for (int i = 0; i < units.length; i++) {
            if (bytes % factors[i] == 0) {
                return bytes / factors[i] + units[i];
            }
        }
        return Long.toString(bytes);
    }

    /** The file's text for {@code provider}. */
    static String render(String provider, String description, String projectName) {
        StringBuilder yaml = new StringBuilder();
        yaml.append("# forge-memory configuration of this project, written by 'forge-memory init'.\n")
                .append("#\n")
                .append("# The provider is chosen by, highest precedence first: --memory-provider NAME, a file given with\n")
                .append("# --memory-config FILE, $FORGE_MEMORY_PROVIDER, this file, $FORGE_HOME/config.yaml (default\n")
                .append("# ~/.forge/config.yaml), the built-in default. 'forge-memory config' shows what is in effect.\n")
                .append("# Strings may read the environment with ${VAR} or ${VAR:-default}; $$ is a literal $. Settings named\n")
                .append("# like password, secret, token or api_key are masked in 'forge-memory config'.\n")
                .append("memory:\n")
                .append("  # ").append(description.replace("\n", " ")).append('\n')
                .append("  provider: ").append(provider).append('\n')
                .append("  # project: ").append(projectName)
                .append("    # the id PROJECT memories are kept under; default: the project directory's name\n");
        Optional<List<Setting>> settings = settings(provider);
        if (provider.equals(HybridMemoryProvider.NAME)) {
            yaml.append(hybridConfig());
        } else if (settings.isEmpty()) {
            yaml.append("  # config:                # the '").append(provider)
                    .append("' provider's settings: see its documentation\n");
        } else if (settings.get().isEmpty()) {
            yaml.append("  # The '").append(provider).append("' provider takes no settings.\n");
        } else {
            yaml.append("  config:                  # every setting below is shown at its default; uncomment to change it\n");
            int width = settings.get().stream().mapToInt(s -> s.key().length() + s.defaultValue().length() + 2).max().orElse(0);
            for (Setting setting : settings.get()) {
                String line = setting.key() + ": " + setting.defaultValue();
                yaml.append("    # ").append(line).append(" ".repeat(width - line.length() + 2))
                        .append("# ").append(setting.meaning()).append('\n');
            }
        }
        return yaml.toString();
    }
}
