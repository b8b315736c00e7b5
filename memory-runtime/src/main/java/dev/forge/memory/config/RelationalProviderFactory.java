package dev.forge.memory.config;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.UnknownProviderException;
import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.Setting;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The provider named {@value #NAME}: seed 004's name for the relational store. It lives here, beside discovery, rather
 * than as an alias of one provider, because what it opens depends on the {@code url}, and as a factory of the registry
 * it works wherever a provider is named, a router's child included.
 *
 * <p>A PostgreSQL URL ({@code postgresql://}, {@code postgres://}, {@code jdbc:postgresql:}): the {@value #SERVER}
 * provider, given the whole block (its {@code url}, {@code pool_size}, {@code ssl} and other keys are its own).
 * {@code url} left out, a file path, {@code sqlite:PATH}, {@code sqlite:///PATH} or {@code jdbc:sqlite:PATH}: the
 * {@value #EMBEDDED} provider on that file (its {@code path}); the block's other keys are the sqlite provider's own, and
 * the server-only keys {@code pool_size} and {@code ssl} are refused there.
 */
public final class RelationalProviderFactory implements MemoryProviderFactory {

    /** The name config selects this provider by. */
    public static final String NAME = "relational";
    /** The provider that serves it without a server URL. */
    public static final String EMBEDDED = "sqlite";
    /** The provider that serves it with a PostgreSQL URL. */
    public static final String SERVER = "postgres";

    private static final List<String> SERVER_KEYS = List.of("pool_size", "ssl");
    private static final Pattern POSTGRES = Pattern.compile("(?i)(jdbc:)?postgres(ql)?:.*");
    // two letters or more: a Windows drive (C:\...) is a path, not a scheme
    private static final Pattern SCHEME = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]+):.*");

    /** Does nothing; all work happens in {@link #open}. */
    public RelationalProviderFactory() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Seed 004's relational store: the postgres provider for a postgresql:// or jdbc:postgresql: 'url', else"
                + " the embedded sqlite provider on the file 'url' names.";
    }

    @Override
    public List<Setting> settings() {
        return List.of(Setting.of("url", "string", ".forge/memory.db", "a PostgreSQL server (postgresql://user:password@"
                + "host:5432/db; the postgres provider's keys go beside it) or a database file: a path, sqlite:PATH or "
                + "jdbc:sqlite:PATH, relative to the project directory; the sqlite provider's keys go beside it"));
    }

    /**
     * Opens the {@value #SERVER} provider for a PostgreSQL {@code url}, else the {@value #EMBEDDED} provider on the file
     * {@code url} names.
     *
     * @throws ConfigurationException for another server URL, {@code url} beside {@code path}, a server-only key on a
     *                                file, or a missing provider jar
     */
    @Override
    public MemoryProvider open(ProviderContext context) {
        ProviderConfig config = context.config();
        Object server = config.values().get("url");
        if (server != null && POSTGRES.matcher(String.valueOf(server).strip()).matches()) {
            return provider(context, SERVER, "provider-postgres").open(context);
        }
        Map<String, Object> own = new LinkedHashMap<>(config.values());
        Object url = own.remove("url");
        if (url != null) {
            String path = path(config, String.valueOf(url).strip());
            if (own.containsKey("path")) {
                throw new ConfigurationException(config.source() + ": '" + config.path() + "' gives both 'url' and 'path';"
                        + " keep one of them.", config.source(), config.path() + ".url", null);
            }
            own.put("path", path);
        }
        List<String> serverKeys = SERVER_KEYS.stream().filter(own::containsKey).map(k -> "'" + config.path() + "." + k + "'")
                .toList();
        if (!serverKeys.isEmpty()) {
            throw new ConfigurationException(config.source() + ": " + String.join(" and ", serverKeys) + " apply to a "
                    + "database server, and without a postgresql:// 'url' the relational store is embedded SQLite, one file with"
                    + " no connections to pool or encrypt: remove " + (serverKeys.size() == 1 ? "it" : "them")
                    + ", or give the server's postgresql:// 'url'.",
                    config.source(), config.path() + "." + SERVER_KEYS.stream().filter(own::containsKey).findFirst().orElseThrow(), null);
        }
        ProviderConfig translated = ProviderConfig.of(own, config.source(), config.path()).withSecretPaths(config.secretPaths());
        return provider(context, EMBEDDED, "provider-sqlite").open(context.withConfig(translated));
    }

    /** The factory of {@code name}, or the sentence naming the jar to add. */
    private static MemoryProviderFactory provider(ProviderContext context, String name, String jar) {
        ProviderConfig config = context.config();
        try {
            return context.registry().factory(name);
        } catch (UnknownProviderException e) {
            throw new ConfigurationException(config.source() + ": the '" + NAME + "' provider here is the '" + name
                    + "' provider, which is not installed: add the " + jar + " jar to the class path (or .forge/plugins).",
                    config.source(), "memory.provider", e);
        }
    }

    /** The file a {@code url} names, or the sentence saying why it names none. */
    private static String path(ProviderConfig config, String url) {
        String field = config.path() + ".url";
        String shown = config.isSecret("url") ? "(not shown: it looks like a secret)" : ResolvedConfig.maskUrlPassword(url);
        String lower = url.toLowerCase(Locale.ROOT);
        String path;
        if (lower.startsWith("jdbc:sqlite:")) {
            path = url.substring("jdbc:sqlite:".length());
        } else if (lower.startsWith("sqlite:///")) {
            path = url.substring("sqlite:///".length()); // SQLAlchemy's form: sqlite:////abs, sqlite:///relative
        } else if (lower.startsWith("sqlite:") && !lower.startsWith("sqlite://")) {
            path = url.substring("sqlite:".length());
        } else if (SCHEME.matcher(url).matches()) {
            throw new ConfigurationException(config.source() + ": '" + field + "' is " + shown + ", and the relational "
                    + "store is PostgreSQL or embedded SQLite: give postgresql://user:password@host:5432/database, a file path,"
                    + " sqlite:PATH or jdbc:sqlite:PATH (or leave 'url' out for .forge/memory.db).", config.source(), field, null);
        } else {
            path = url;
        }
        if (path.isBlank() || path.startsWith(":memory:") || path.contains("?")) {
            throw new ConfigurationException(config.source() + ": '" + field + "' must name a database file, not " + shown
                    + " (no ':memory:', no '?' options: the sqlite provider's own keys set those).", config.source(), field, null);
        }
        return path;
    }
}
