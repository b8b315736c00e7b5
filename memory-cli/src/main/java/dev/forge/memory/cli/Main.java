package dev.forge.memory.cli;

import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** The entry point of {@code forge-memory.jar}. */
public final class Main {

    /** The slf4j-simple property for the default level; read once, when the first logger is created. */
    static final String LOG_LEVEL_PROPERTY = "org.slf4j.simpleLogger.defaultLogLevel";

    /** The loggers of forge-memory itself, which log warnings and errors without {@code --verbose}. */
    static final String OWN_LOGGERS = "dev.forge.memory";

    private Main() {
    }

    /** Runs the command line and exits with its exit code (see {@link ExitCodes}). */
    public static void main(String[] args) {
        configureLogging(args);
        // Memory values are text in any language: print them as UTF-8 whatever the platform's default charset.
        PrintWriter out = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.err), StandardCharsets.UTF_8), true);
        int exitCode = ForgeMemoryCommand.commandLine(System.getenv(), System.in, Path.of(System.getProperty("user.home")), args)
                .setOut(out)
                .setErr(err)
                .execute(args);
        out.flush();
        err.flush();
        System.exit(exitCode);
    }

    /**
     * Sets slf4j-simple's levels before any logger exists. By default the tool's own loggers ({@value #OWN_LOGGERS})
     * log warnings and errors, and libraries log nothing: their errors (sqlite-jdbc's about an old native library it
     * cannot delete, with a stack trace; DJL's CUDA probe) are not the user's to act on, and a failure that matters
     * reaches the user as the tool's own one-line error. {@code --verbose} logs everything. Always on stderr, so that
     * stdout holds only the command's output. A level given with {@code -D} wins.
     */
    static void configureLogging(String[] args) {
        boolean verbose = false;
        for (String arg : args) {
            if (arg.equals("--")) {
                break;
            }
            verbose |= arg.equals("--verbose");
        }
        boolean levelGiven = System.getProperty(LOG_LEVEL_PROPERTY) != null;
        setIfAbsent(LOG_LEVEL_PROPERTY, verbose ? "trace" : "off");
        if (!verbose && !levelGiven) {
            setIfAbsent("org.slf4j.simpleLogger.log." + OWN_LOGGERS, "warn");
        }
        setIfAbsent("org.slf4j.simpleLogger.logFile", "System.err");
        setIfAbsent("org.slf4j.simpleLogger.showThreadName", "false");
        setIfAbsent("org.slf4j.simpleLogger.showShortLogName", "true");
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }
}
