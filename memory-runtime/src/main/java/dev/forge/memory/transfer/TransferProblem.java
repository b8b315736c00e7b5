package dev.forge.memory.transfer;

import java.util.Objects;

/**
 * One record that cannot be imported, and where it is.
 *
 * @param location where: {@code line 12} of a JSON Lines file, {@code line 40 ($.scopes.project[3])} of a JSON
 *                 document, or {@code entry project:key} of a source provider
 * @param message  what is wrong with it
 */
public record TransferProblem(String location, String message) {

    /** The most problems an error lists or a report keeps one by one; the rest are counted. */
    public static final int MAX_LISTED = 1000;

    /** Checks the values. */
    public TransferProblem {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
        return location + ": " + message;
    }
}
