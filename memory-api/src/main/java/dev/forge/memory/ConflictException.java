package dev.forge.memory;

/** A concurrent change got there first, for example a transaction whose keys changed since it read them. Retry the work. */
public class ConflictException extends MemoryException {
    private static final long serialVersionUID = 1L;

    /** An error with a message. */
    public ConflictException(String message) {
        super(message);
    }

    /** An error with a message and its cause. */
    public ConflictException(String message, Throwable cause) {
        super(message, cause);
    }
}
