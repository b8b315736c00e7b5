package dev.forge.memory;

/**
 * The root of every error forge-memory throws. Unchecked; the backend's own exception, if any, is the cause.
 *
 * <p>A message says what happened, to which key or file, and what to do about it.
 */
public class MemoryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** An error with a message. */
    public MemoryException(String message) {
        super(message);
    }

    /** An error with a message and the backend's exception that caused it. */
    public MemoryException(String message, Throwable cause) {
        super(message, cause);
    }
}
