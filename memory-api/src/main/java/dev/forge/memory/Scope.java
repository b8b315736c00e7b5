package dev.forge.memory;

import java.util.Locale;

/**
 * Where a memory lives and who sees it.
 *
 * <p>The same key may exist once in each scope; the three entries are unrelated.
 */
public enum Scope {
    /** The current working context: visible only to the session that wrote it, removed when that session ends. */
    SESSION,
    /** Persistent knowledge of one project: invisible to every other project on the same backend. */
    PROJECT,
    /** Permanent knowledge shared by every project on the same backend. */
    GLOBAL;

    /** The lower-case name used in files, config and the command line ({@code session}, {@code project}, {@code global}). */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a scope name, ignoring case.
     *
     * @throws InvalidRequestException if the text names no scope
     */
    public static Scope parse(String text) {
        if (text != null) {
            for (Scope scope : values()) {
                if (scope.name().equalsIgnoreCase(text.trim())) {
                    return scope;
                }
            }
        }
        throw new InvalidRequestException("Unknown scope '" + text + "': use one of session, project, global.");
    }
}
