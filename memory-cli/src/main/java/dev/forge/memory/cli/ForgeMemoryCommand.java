package dev.forge.memory.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.config.Memories;
import dev.forge.memory.Keys;
import dev.forge.memory.spi.ProviderContext;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * {@code forge-memory}: the root command, holding the options every subcommand shares and the process
 * environment (a map, so tests can supply their own).
 */
@Command(name = "forge-memory",
        mixinStandardHelpOptions = true,
        versionProvider = ForgeMemoryCommand.Version.class,
        description = {
            "Inspect, store, search and relate long-term memories of a project.",
            "",
            "The provider is chosen by, highest precedence first: --memory-provider, a file given with --memory-config, "
                    + "$FORGE_MEMORY_PROVIDER, the project's .forge/config.yaml, $FORGE_HOME/config.yaml "
                    + "(default ~/.forge/config.yaml), the built-in default. 'forge-memory config' shows the outcome.",
            "",
            "Each call is a new process, so SESSION memories need a stable session id across calls: --session, else "
                    + "$FORGE_SESSION_ID, else 'cli'.",
            "",
            "--json prints one JSON object on stdout. get and set print the entry object itself (key, value, scope, "
                    + "tags, metadata, createdAt, updatedAt, version), so its fields are at the top level; commands "
                    + "that list things wrap the list in an object: search {\"hits\": [...]}, query {\"entries\": [...]}, "
                    + "history {\"key\", \"scope\", \"deleted\", \"versions\": [...]}, "
                    + "providers {\"providers\", \"problems\"}, traverse {\"start\", \"paths\"}, "
                    + "doctor {\"provider\", \"problems\"}. search --batch always writes JSON Lines, one object "
                    + "per query, with or without --json. Errors are never JSON: one line on stderr, and the exit code.",
            "",
        },
        footerHeading = "%nExit codes:%n",
        footer = {
            "    0  success",
            "    1  not found: no such key or entry",
            "    2  usage: bad or empty option, argument, key, value or request;",
            "       clear without --yes, purge --all without --scope",
            "    3  configuration: bad config file or key, unknown provider, unset $${VAR},",
            "       an index built by another embedding model (run reindex)",
            "       (config still prints what it resolved)",
            "    4  backend or I/O: unavailable, storage failure, damaged entry, conflict;",
            "       a file the command writes (init, search --out) cannot be written",
            "    5  unsupported: the provider lacks the capability (e.g. semantic search,",
            "       or history for history and purge)",
            "    6  doctor found problems in the stored data (listed on stdout), or",
            "       export left out entries that cannot be read (listed on stderr)",
            "    7  import: the input is not a valid export (truncated, wrong format or",
            "       version, duplicate or invalid records); nothing was imported",
            "  126  bin/forge-memory only: cannot run the tool (no Java 17 or newer,",
            "       building the jar failed, or the build lock timed out)",
            "Errors are one line on stderr, also with --json; --verbose adds the stack trace.",
        })
public final class ForgeMemoryCommand implements Callable<Integer> {

    /** The environment variable that supplies the default session id. */
    static final String SESSION_VARIABLE = "FORGE_SESSION_ID";
    /** The session id used when neither --session nor $FORGE_SESSION_ID is given. */
    static final String DEFAULT_SESSION = "cli";

    private final Map<String, String> environment;
    private final InputStream stdin;
    private final Path userHome;

    @Spec
    CommandSpec spec;

    @Option(names = "--project", paramLabel = "DIR", scope = ScopeType.INHERIT,
            description = "The project directory (default: the current directory).")
    Path project;

    @Option(names = "--memory-provider", paramLabel = "NAME", scope = ScopeType.INHERIT,
            description = "Use this provider, whatever the config files and $FORGE_MEMORY_PROVIDER say.")
    String provider;

    @Option(names = "--memory-config", paramLabel = "FILE", scope = ScopeType.INHERIT,
            description = "A config file that takes precedence over $FORGE_MEMORY_PROVIDER, the project's and the user's.")
    Path configFile;

    @Option(names = "--session", paramLabel = "ID", scope = ScopeType.INHERIT,
            description = "The session SESSION memories belong to (default: $FORGE_SESSION_ID, else 'cli').")
    String session;

    @Option(names = "--json", scope = ScopeType.INHERIT,
            description = "Print one JSON object on stdout (shapes: 'forge-memory --help'); errors stay one plain line "
                    + "on stderr. Does not change search --batch, which always writes JSON Lines.")
    boolean json;

    @Option(names = "--verbose", scope = ScopeType.INHERIT,
            description = "Log everything to stderr, and print stack traces of errors.")
    boolean verbose;

    /**
     * A root command.
     *
     * @param environment the process environment ({@code FORGE_HOME}, {@code FORGE_MEMORY_PROVIDER},
     *                    {@code FORGE_SESSION_ID}, and variables config files interpolate)
     * @param stdin       what {@code set KEY -} and {@code search --batch -} read
     * @param userHome    the user's home, whose {@code .forge} is used unless {@code FORGE_HOME} is set
     */
    ForgeMemoryCommand(Map<String, String> environment, InputStream stdin, Path userHome) {
        this.environment = Map.copyOf(environment);
        this.stdin = Objects.requireNonNull(stdin, "stdin");
        this.userHome = Objects.requireNonNull(userHome, "userHome");
    }

    /**
     * The subcommands, by name, in the order help lists them. Added to the root by {@link #commandLine}, not by the
     * root's annotation, so that a call can build the picocli model of only the subcommand it runs.
     */
    static final Map<String, Class<?>> SUBCOMMANDS = subcommands(ProvidersCommand.class, InitCommand.class,
            ConfigCommand.class, SetCommand.class, GetCommand.class, QueryCommand.class, SearchCommand.class,
            DeleteCommand.class, PurgeCommand.class, ClearCommand.class, RelateCommand.class, TraverseCommand.class,
            HistoryCommand.class, DoctorCommand.class, ReindexCommand.class, ExportCommand.class, ImportCommand.class,
            MigrateCommand.class, StalenessCommand.class, PruneCommand.class, PluginCommand.class,
            ConsolidateCommand.class, ContextCommand.class, McpCommand.class);

    /** The options of the root that take a value, whose value is never the subcommand's name. */
    private static final Set<String> VALUE_OPTIONS = Set.of("--project", "--memory-provider", "--memory-config",
            "--session");

    private static Map<String, Class<?>> subcommands(Class<?>... classes) {
        Map<String, Class<?>> byName = new LinkedHashMap<>();
        for (Class<?> type : classes) {
            byName.put(type.getAnnotation(Command.class).name(), type);
        }
        return Collections.unmodifiableMap(byName);
    }

    /**
     * A ready command line for running {@code args} (converters, exit codes and error reporting set; stdout and stderr
     * still to be set): with only the subcommand they name, when they name one, since
     * building picocli's model of all of them (reflection over every option of every command) is a good part of a
     * short call's start; with every subcommand otherwise (help, no or an unknown subcommand), so that usage and
     * suggestions list them all. Parsing and running {@code args} is the same either way.
     *
     * @param args the arguments to be run, or null for every subcommand
     */
    public static CommandLine commandLine(Map<String, String> environment, InputStream stdin, Path userHome, String[] args) {
        ExitCodes exitCodes = new ExitCodes();
        CommandLine commandLine = new CommandLine(new ForgeMemoryCommand(environment, stdin, userHome));
        String only = args == null ? null : subcommandOf(args);
        for (Map.Entry<String, Class<?>> subcommand : SUBCOMMANDS.entrySet()) {
            if (only == null || only.equals(subcommand.getKey())) {
                commandLine.addSubcommand(subcommand.getKey(), subcommand.getValue());
            }
        }
        commandLine.registerConverter(Scope.class, ForgeMemoryCommand::scope);
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        // Otherwise "set k -hello" would read as -h (help) and store nothing; now it is an unknown option, with a hint.
        commandLine.setPosixClusteredShortOptionsAllowed(false);
        commandLine.setExecutionStrategy(ForgeMemoryCommand::execute);
        commandLine.setExecutionExceptionHandler(exitCodes);
        commandLine.setParameterExceptionHandler(exitCodes);
        return commandLine;
    }

    /**
     * The subcommand {@code args} run: their first argument that is neither an option nor the value of one of the
     * root's options, if it names a subcommand; null otherwise (or if any argument asks the root for help or its
     * version, which picocli answers before any subcommand).
     */
    static String subcommandOf(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (VALUE_OPTIONS.contains(arg)) {
                i++;
            } else if (!arg.startsWith("-")) {
                return SUBCOMMANDS.containsKey(arg) ? arg : null;
            } else if (!arg.startsWith("--") || arg.equals("--help") || arg.equals("--version") || arg.equals("--")) {
                return null; // -h, -V, clustered or unknown short options, --help, --version: picocli decides
            }
        }
        return null;
    }

    /**
     * Runs the command. A class that fails to link (picocli lets {@link Error}s through) almost always comes from a
     * plugin jar built against another version of the API: reported like any configuration error.
     */
    private static int execute(CommandLine.ParseResult parseResult) {
        Integer help = CommandLine.executeHelpRequest(parseResult);
        if (help != null) {
            return help;
        }
        CommandLine.ParseResult last = parseResult;
        while (last.hasSubcommand()) {
            last = last.subcommand();
        }
        ((ForgeMemoryCommand) parseResult.commandSpec().userObject()).checkOptions(last.commandSpec().commandLine());
        try {
            return new CommandLine.RunLast().execute(parseResult);
        } catch (LinkageError e) {
            ConfigurationException reported = new ConfigurationException("A class failed to load (" + e + "); is a plugin "
                    + "jar in .forge/plugins or $FORGE_HOME/plugins built for another version of forge-memory?", null, null, e);
            throw new CommandLine.ExecutionException(parseResult.commandSpec().commandLine(), reported.getMessage(), reported);
        }
    }

    /**
     * Refuses empty and invalid values of the shared options before any command runs, so that every command, even
     * one that does not use the option (config, providers, init), refuses them alike: exit 2.
     *
     * @param command the command being run, whose help the message points to
     */
    void checkOptions(CommandLine command) {
        if (project != null && project.toString().isBlank()) {
            throw empty(command, "--project", "the project directory", "to use the current directory");
        }
        if (configFile != null && configFile.toString().isBlank()) {
            throw empty(command, "--memory-config", "a config file", "to read only the usual config files");
        }
        if (provider != null && provider.isBlank()) {
            throw empty(command, "--memory-provider", "a provider name ('forge-memory providers' lists them)",
                    "to use the configured provider");
        }
        if (session != null) {
            if (session.isBlank()) {
                throw empty(command, "--session", "a session id", "to use $" + SESSION_VARIABLE + ", else '" + DEFAULT_SESSION + "'");
            }
            checkSessionId(command, "--session", session);
        } else {
            String fromEnvironment = environment.get(SESSION_VARIABLE);
            if (fromEnvironment != null && !fromEnvironment.isBlank()) {
                checkSessionId(command, "$" + SESSION_VARIABLE, fromEnvironment);
            }
        }
    }

    private static CommandLine.ParameterException empty(CommandLine command, String option, String what, String otherwise) {
        return new CommandLine.ParameterException(command, option + " is empty: give " + what + ", or leave the option out "
                + otherwise + ".");
    }

    private static void checkSessionId(CommandLine command, String origin, String id) {
        try {
            Keys.validate(id, "session id", ProviderContext.MAX_ID_LENGTH);
        } catch (InvalidKeyException e) {
            throw new CommandLine.ParameterException(command, origin + ": " + e.getMessage());
        }
    }

    /** No subcommand: say what there is. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }

    /** Parses a scope ignoring case, with the API's message for a bad one. */
    static Scope scope(String text) {
        try {
            return Scope.parse(text);
        } catch (InvalidRequestException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }

    /**
     * The project directory, absolute.
     *
     * @throws UsageException if it is not a directory: a mistyped --project must not create a store somewhere new
     */
    Path projectDirectory() {
        Path directory = (project == null ? Path.of("") : project).toAbsolutePath().normalize();
        if (!Files.isDirectory(directory)) {
            throw new UsageException("The project directory " + directory + " does not exist.");
        }
        return directory;
    }

    /** The session id SESSION memories belong to. */
    String sessionId() {
        if (session != null) {
            return session;
        }
        String fromEnvironment = environment.get(SESSION_VARIABLE);
        return fromEnvironment != null && !fromEnvironment.isBlank() ? fromEnvironment : DEFAULT_SESSION;
    }

    /** Where the session id came from, for {@code config}. */
    String sessionSource() {
        if (session != null) {
            return "--session";
        }
        return sessionNamed() ? SESSION_VARIABLE : "default";
    }

    /** Whether the session id was given (--session or $FORGE_SESSION_ID) rather than the default. */
    boolean sessionNamed() {
        String fromEnvironment = environment.get(SESSION_VARIABLE);
        return session != null || fromEnvironment != null && !fromEnvironment.isBlank();
    }

    /** The configuration builder for this call: every option and the environment applied. */
    Memories.Builder memories() {
        return memoriesFor(provider, configFile);
    }

    /**
     * The configuration builder for this call's project, session and environment with the given overrides: the
     * configured provider's (--memory-provider, --memory-config), or another's (a migration's target). A null
     * {@code provider} or {@code configFile} leaves the config files and the environment to decide.
     */
    Memories.Builder memoriesFor(String provider, Path configFile) {
        Memories.Builder builder = Memories.builder()
                .projectDirectory(projectDirectory())
                .environment(environment)
                .userHome(userHome)
                .sessionId(sessionId());
        if (provider != null) {
            builder.provider(provider);
        }
        if (configFile != null) {
            // A file named on the command line is relative to the working directory, as a user expects.
            builder.configFile(configFile.toAbsolutePath().normalize());
        }
        return builder;
    }

    /** Opens the configured provider; the caller closes it. */
    MemoryProvider open() {
        return memories().open();
    }

    /** A variable of the process environment, or null. */
    String environment(String name) {
        return environment.get(name);
    }

    /** What {@code -} reads. */
    InputStream stdin() {
        return stdin;
    }

    /** stdout. */
    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** stderr, for remarks a script does not parse (such as "no entries"). */
    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** Prints one JSON document on stdout. */
    void printJson(JsonNode document) {
        PrintWriter out = out();
        out.println(Json.pretty(document));
        out.flush();
    }

    /**
     * Prints a list of results: with {@code --json} a document whose {@code field} holds them, else a line each on
     * stdout, or {@code none} on stderr when there are none (so that a script reading stdout gets nothing).
     */
    <T> void printResults(List<T> results, String field, Function<T, JsonNode> json, Function<T, String> line, String none) {
        if (this.json) {
            ObjectNode document = Json.object();
            ArrayNode array = document.putArray(field);
            results.forEach(r -> array.add(json.apply(r)));
            printJson(document);
            return;
        }
        PrintWriter stream = results.isEmpty() ? err() : out();
        if (results.isEmpty()) {
            stream.println(none);
        }
        results.forEach(r -> stream.println(line.apply(r)));
        stream.flush();
    }

    /** Prints a line on stdout. */
    void println(String line) {
        out().println(line);
        out().flush();
    }

    /** Prints the version from the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = ForgeMemoryCommand.class.getPackage().getImplementationVersion();
            return new String[] {"forge-memory " + (version == null ? "(development build)" : version)};
        }
    }
}
