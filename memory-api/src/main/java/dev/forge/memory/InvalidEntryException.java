package dev.forge.memory;

/** A value, tag or metadata item that cannot be stored as given (not JSON-compatible, unpaired surrogates, too many tags...). */
public class InvalidEntryException extends MemoryException {
    private static final long serialVersionUID = 1L;

    /** An error with a message. */
    public InvalidEntryException(String message) {
        super(message);
    }

    /** An error with a message and its cause. */
    public InvalidEntryException(String message, Throwable cause) {
        super(message, cause);
    }
}
