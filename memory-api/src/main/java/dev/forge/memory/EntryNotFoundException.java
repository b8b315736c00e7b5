package dev.forge.memory;

/** An operation needs an entry that does not exist, for example one end of a relation. */
public class EntryNotFoundException extends MemoryException {
    private static final long serialVersionUID = 1L;

    /** An error with a message. */
    public EntryNotFoundException(String message) {
        super(message);
    }

    /** An error with a message and its cause. */
    public EntryNotFoundException(String message, Throwable cause) {
        super(message, cause);
    }
}
