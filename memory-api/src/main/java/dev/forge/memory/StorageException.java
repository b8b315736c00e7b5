package dev.forge.memory;

/** The backend failed while reading or writing: an I/O error, a full disk. Nothing was half-written. */
public class StorageException extends MemoryException {
    private static final long serialVersionUID = 1L;

    /** An error with a message. */
    public StorageException(String message) {
        super(message);
    }

    /** An error with a message and its cause. */
    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
