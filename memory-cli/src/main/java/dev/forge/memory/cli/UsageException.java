package dev.forge.memory.cli;

/** The command's input is malformed in a way the parser cannot see (a batch file's line, a missing --yes): exit 2. */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }

    UsageException(String message, Throwable cause) {
        super(message, cause);
    }
}
