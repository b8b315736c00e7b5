package dev.forge.memory;

/** A query, search request, relation or other call is malformed: a bad pattern, limit, type or a closed transaction. */
public class InvalidRequestException extends MemoryException {
    private static final long serialVersionUID = 1L;

    /** An error with a message. */
    public InvalidRequestException(String message) {
        super(message);
    }

    /** An error with a message and its cause. */
    public InvalidRequestException(String message, Throwable cause) {
        super(message, cause);
    }
}
