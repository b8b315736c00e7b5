package dev.forge.memory;

/** A key breaks the key rules: empty, longer than 512 code points, or holding control characters or unpaired surrogates. */
public class InvalidKeyException extends MemoryException {
    private static final long serialVersionUID = 1L;

    /** An error with a message. */
    public InvalidKeyException(String message) {
        super(message);
    }

    /** An error with a message and its cause. */
    public InvalidKeyException(String message, Throwable cause) {
        super(message, cause);
    }
}
