package dev.forge.memory;

/** Stored data cannot be read back: a damaged file or row. The data is left where it is for a person to inspect. */
public class CorruptEntryException extends MemoryException {
    private static final long serialVersionUID = 1L;

    /** An error with a message. */
    public CorruptEntryException(String message) {
        super(message);
    }

    /** An error with a message and its cause. */
    public CorruptEntryException(String message, Throwable cause) {
        super(message, cause);
    }
}
