package dev.forge.memory.file.internal;

import dev.forge.memory.Scope;
import dev.forge.memory.Keys;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Whose entries a directory holds: a scope and its owner. Its {@linkplain #path() path} relative to the store
 * is {@code session/<project-dir>/<session-dir>} (a session belongs to its project), {@code project/<project-dir>}
 * or {@code global}, each id mapped with {@link Keys#toFileName}, so that distinct ids never share a directory.
 *
 * @param scope the scope
 * @param path  the directory relative to the store, with {@code /} separators
 */
public record Namespace(Scope scope, String path) {

    /** Rejects nulls. */
    public Namespace {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(path, "path");
    }

    /** The namespace of {@code scope} for a provider serving {@code projectId} and {@code sessionId}. */
    public static Namespace of(Scope scope, String projectId, String sessionId) {
        return switch (scope) {
            case SESSION -> new Namespace(scope, "session/" + Keys.toFileName(projectId) + "/" + Keys.toFileName(sessionId));
            case PROJECT -> new Namespace(scope, "project/" + Keys.toFileName(projectId));
            case GLOBAL -> new Namespace(scope, "global");
        };
    }

    /**
     * Parses a path written by {@link #path()}, or returns {@code null} if it is not one (so that a damaged journal
     * or relations file can never name a directory outside the store).
     */
    public static Namespace parse(String path) {
        if (path.equals("global")) {
            return new Namespace(Scope.GLOBAL, path);
        }
        String[] parts = path.split("/", -1);
        for (int i = 1; i < parts.length; i++) {
            if (!isFileNameOfKey(parts[i])) {
                return null;
            }
        }
        if (parts.length == 2 && parts[0].equals("project")) {
            return new Namespace(Scope.PROJECT, path);
        }
        if (parts.length == 3 && parts[0].equals("session")) {
            return new Namespace(Scope.SESSION, path);
        }
        return null;
    }

    /** Whether {@code name} can be an output of {@link Keys#toFileName}: only its characters, no leading dot. */
    static boolean isFileNameOfKey(String name) {
        if (name.isEmpty() || name.startsWith(".") || name.length() > Keys.MAX_FILE_NAME_LENGTH) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '%'
                    || c == '^' || c == '~';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** The directory of this namespace under {@code store}. */
    public Path directory(Path store) {
        return store.resolve(path);
    }

    @Override
    public String toString() {
        return path;
    }
}
