package dev.forge.memory.cli;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryException;
import dev.forge.memory.UnsupportedCapabilityException;
import java.io.PrintWriter;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The exit codes of {@code forge-memory} (the root command's help lists them), and the one place that maps
 * failures to them and reports them: one line on stderr (with {@code --json} too), the stack trace only with
 * {@code --verbose}.
 */
final class ExitCodes implements IExecutionExceptionHandler, IParameterExceptionHandler {

    /** Success. */
    static final int OK = 0;
    /** The entry asked for does not exist (get, delete, purge, history, traverse, relate). */
    static final int NOT_FOUND = 1;
    /** The command line or the request is malformed: bad option, key, value, pattern, or a missing confirmation. */
    static final int USAGE = 2;
    /** The configuration is invalid or names an unknown provider. */
    static final int CONFIGURATION = 3;
    /**
     * The backend cannot be reached or failed (I/O, damaged data, a concurrent change), a file the command writes
     * cannot be written (init's config file, search --out), or an unexpected error.
     */
    static final int BACKEND = 4;
    /** The provider lacks a capability the command needs. */
    static final int UNSUPPORTED = 5;
    /**
     * {@code doctor} ran and found problems in the stored data, or {@code export} wrote what it could read and left out
     * entries that cannot be read (named on stderr). Not a failure of the command, so not 4: the store answered.
     */
    static final int PROBLEMS_FOUND = 6;
    /** {@code import}: the input is not a valid export; nothing was imported. */
    static final int INVALID_INPUT = 7;

    /** The exit code for a failure. */
    static int of(Throwable failure) {
        if (failure instanceof dev.forge.memory.transfer.TransferFileException) {
            return INVALID_INPUT;
        }
        if (failure instanceof EntryNotFoundException) {
            return NOT_FOUND;
        }
        if (failure instanceof UsageException || failure instanceof ParameterException
                || failure instanceof InvalidKeyException || failure instanceof InvalidEntryException
                || failure instanceof InvalidRequestException) {
            return USAGE;
        }
        if (failure instanceof ConfigurationException) {
            return CONFIGURATION;
        }
        if (failure instanceof UnsupportedCapabilityException) {
            return UNSUPPORTED;
        }
        if (failure instanceof CliIoException) {
            return BACKEND;
        }
        // BackendUnavailableException, StorageException, CorruptEntryException, ConflictException, any other
        // MemoryException, and errors nobody foresaw: the work could not be done.
        return BACKEND;
    }

    /** The one sentence reported for a failure. */
    static String message(Throwable failure) {
        String message = failure.getMessage();
        if (failure instanceof MemoryException || failure instanceof UsageException || failure instanceof CliIoException
                || failure instanceof CommandFailedException) {
            return oneLine(message != null ? message : failure.getClass().getSimpleName());
        }
        return oneLine("unexpected error: " + failure + ". Run again with --verbose for the stack trace.");
    }

    /** The text on one line: an error is reported as one line of stderr, whatever the message holds. */
    static String oneLine(String text) {
        return text.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    @Override
    public int handleExecutionException(Exception failure, CommandLine command, ParseResult parseResult) {
        PrintWriter err = command.getErr();
        err.println("forge-memory: " + message(failure));
        if (verbose(command)) {
            failure.printStackTrace(err);
        }
        err.flush();
        return of(failure);
    }

    @Override
    public int handleParseException(ParameterException failure, String[] args) {
        CommandLine command = failure.getCommandLine();
        PrintWriter err = command.getErr();
        // One line, like every other error: the problem, a suggestion or hint if there is one, where help is.
        StringBuilder line = new StringBuilder("forge-memory: ").append(sentence(failure.getMessage()));
        if (failure instanceof UnmatchedArgumentException unmatched) {
            List<String> suggestions = unmatched.getSuggestions();
            if (!suggestions.isEmpty()) {
                line.append(" Did you mean ").append(suggestions.stream().map(s -> "'" + s + "'")
                        .collect(Collectors.joining(" or "))).append('?');
            }
            if (unmatched.getUnmatched().stream().anyMatch(arg -> arg.startsWith("-"))) {
                line.append(" A key or value that starts with '-' goes after '--', as in: forge-memory set -- KEY -VALUE.");
            }
        }
        line.append(" Run '").append(command.getCommandSpec().qualifiedName()).append(" --help' for usage.");
        err.println(line);
        if (verbose(command)) {
            failure.printStackTrace(err);
        }
        err.flush();
        return USAGE;
    }

    /** A message as one line ending with a full stop. */
    private static String sentence(String message) {
        String text = oneLine(message == null ? "invalid command line" : message);
        return text.endsWith(".") || text.endsWith("?") ? text : text + ".";
    }

    private static boolean verbose(CommandLine command) {
        Object root = command.getCommandSpec().root().userObject();
        return root instanceof ForgeMemoryCommand cli && cli.verbose;
    }
}
