package dev.forge.memory;

/** A value or an encoded entry is larger than the provider's limit; nothing was written. */
public class ValueTooLargeException extends InvalidEntryException {
    private static final long serialVersionUID = 1L;

    /** An error with a message. */
    public ValueTooLargeException(String message) {
        super(message);
    }

    /** An error with a message and its cause. */
    public ValueTooLargeException(String message, Throwable cause) {
        super(message, cause);
    }
}
