package dev.forge.memory.knowledge;

import java.util.Objects;

/**
 * The answer of the official server's delete tools: always a success (names, observations and relations that do not
 * exist are ignored), with its fixed message.
 *
 * @param success always true: a failure is an exception
 * @param message such as {@code Entities deleted successfully}
 */
public record Confirmation(boolean success, String message) {

    /** Rejects a null message. */
    public Confirmation {
        Objects.requireNonNull(message, "message");
    }
}
