package dev.forge.memory.markdown.internal;

import dev.forge.memory.EntryRef;
import dev.forge.memory.Scope;

/** How the git commit of a write names what it changed: {@code set project build-tool (v2)}. */
final class CommitMessages {

    private CommitMessages() {
    }

    /** A key as commit messages name it: {@code project build-tool}. */
    static String named(Scope scope, String key) {
        return scope.id() + " " + key;
    }

    static String named(EntryRef ref) {
        return named(ref.scope(), ref.key());
    }

    static String memories(int count) {
        return count + (count == 1 ? " memory" : " memories");
    }
}
