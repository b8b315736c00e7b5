package dev.forge.memory;

/** The backend cannot be reached or has been closed: a server down, a store locked by another process, a closed provider. */
public class BackendUnavailableException extends MemoryException {
    private static final long serialVersionUID = 1L;

    /** An error with a message. */
    public BackendUnavailableException(String message) {
        super(message);
    }

    /** An error with a message and its cause. */
    public BackendUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
