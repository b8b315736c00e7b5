package dev.forge.memory.cli;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryException;
import dev.forge.memory.UnsupportedCapabilityException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The exit codes of {@code forge-memory} (the root command's help lists them), and the one place that maps
 * failures to them and reports them: one sentence on stderr, the stack trace only with {@code --verbose}.
 */
final class ExitCodes implements IExecutionExceptionHandler, IParameterExceptionHandler {

    /** Success. */
    static final int OK = 0;
    /** The entry asked for does not exist (get, delete, history, traverse, relate). */
    static final int NOT_FOUND = 1;
    /** The command line or the request is malformed: bad option, key, value, pattern, or a missing confirmation. */
    static final int USAGE = 2;
    /** The configuration is invalid or names an unknown provider. */
    static final int CONFIGURATION = 3;
    /** The backend cannot be reached or failed (I/O, damaged data, a concurrent change), or an unexpected error. */
    static final int BACKEND = 4;
    /** The provider lacks a capability the command needs. */
    static final int UNSUPPORTED = 5;

    /** The exit code for a failure. */
    static int of(Throwable failure) {
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
        // BackendUnavailableException, StorageException, CorruptEntryException, ConflictException, any other
        // MemoryException, and errors nobody foresaw: the work could not be done.
        return BACKEND;
    }

    /** The one sentence reported for a failure. */
    static String message(Throwable failure) {
        String message = failure.getMessage();
        if (failure instanceof MemoryException || failure instanceof UsageException) {
            return message != null ? message : failure.getClass().getSimpleName();
        }
        return "unexpected error: " + failure + ". Run again with --verbose for the stack trace.";
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
        err.println("forge-memory: " + failure.getMessage());
        UnmatchedArgumentException.printSuggestions(failure, err);
        if (failure instanceof UnmatchedArgumentException unmatched
                && unmatched.getUnmatched().stream().anyMatch(arg -> arg.startsWith("-"))) {
            err.println("A key or value that starts with '-' goes after '--', as in: forge-memory set -- KEY -VALUE");
        }
        err.println("Run '" + command.getCommandSpec().qualifiedName() + " --help' for usage.");
        if (verbose(command)) {
            failure.printStackTrace(err);
        }
        err.flush();
        return USAGE;
    }

    private static boolean verbose(CommandLine command) {
        Object root = command.getCommandSpec().root().userObject();
        return root instanceof ForgeMemoryCommand cli && cli.verbose;
    }
}
