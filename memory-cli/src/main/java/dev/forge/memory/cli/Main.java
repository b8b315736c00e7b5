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

    private Main() {
    }

    /** Runs the command line and exits with its exit code (see {@link ExitCodes}). */
    public static void main(String[] args) {
        configureLogging(args);
        // Memory values are text in any language: print them as UTF-8 whatever the platform's default charset.
        PrintWriter out = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.err), StandardCharsets.UTF_8), true);
        int exitCode = ForgeMemoryCommand.commandLine(System.getenv(), System.in, Path.of(System.getProperty("user.home")))
                .setOut(out)
                .setErr(err)
                .execute(args);
        out.flush();
        err.flush();
        System.exit(exitCode);
    }

    /**
     * Sets slf4j-simple's level before any logger exists: warnings and errors by default, everything with
     * {@code --verbose}; always on stderr, so that stdout holds only the command's output. A level given with
     * {@code -D} wins. DJL's CUDA probe is silenced below errors unless {@code --verbose}.
     */
    static void configureLogging(String[] args) {
        boolean verbose = false;
        for (String arg : args) {
            if (arg.equals("--")) {
                break;
            }
            verbose |= arg.equals("--verbose");
        }
        setIfAbsent(LOG_LEVEL_PROPERTY, verbose ? "trace" : "warn");
        setIfAbsent("org.slf4j.simpleLogger.logFile", "System.err");
        setIfAbsent("org.slf4j.simpleLogger.showThreadName", "false");
        setIfAbsent("org.slf4j.simpleLogger.showShortLogName", "true");
        // DJL (the minilm model's tokenizer) probes for CUDA when it loads and warns on every run on machines with a
        // CUDA runtime but no usable GPU; the model runs on the CPU anyway. --verbose shows it.
        if (!verbose) {
            setIfAbsent("org.slf4j.simpleLogger.log.ai.djl", "error");
        }
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }
}
