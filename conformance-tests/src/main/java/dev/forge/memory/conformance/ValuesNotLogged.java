package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Checks that a provider never logs memory values at INFO or above: runs its operations (writes, overwrites, reads,
 * queries, searches, deletes, a rejected write, close and reopen) with a distinctive value while capturing
 * {@code System.err}, where slf4j-simple (the tests' binding, level INFO) writes, and asserts the value never appears.
 */
public final class ValuesNotLogged {

    /** The distinctive value (and its distinctive part) that must never be logged. */
    public static final String VALUE = "private-note-Zq7xWv3kPj9";

    private ValuesNotLogged() {
    }

    /**
     * Runs the operations on providers from {@code open} (opened twice on one store) and asserts that nothing logged
     * meanwhile holds {@link #VALUE}; returns what was logged, for more checks.
     */
    public static String check(Supplier<MemoryProvider> open) {
        PrintStream original = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            // proves the capture: slf4j-simple must write here, or the check below would pass on nothing
            org.slf4j.LoggerFactory.getLogger(ValuesNotLogged.class).info("capturing the log of a provider");
            try (MemoryProvider provider = open.get()) {
                provider.set("secret-note", VALUE, Scope.PROJECT, List.of("tag"), Map.of("note", VALUE));
                provider.set("secret-note", VALUE + " changed", Scope.PROJECT);
                provider.set("session-note", VALUE, Scope.SESSION);
                assertThat(provider.get("secret-note", Scope.PROJECT)).map(MemoryEntry::value).contains(VALUE + " changed");
                provider.query(Query.of("*"));
                try {
                    provider.search(SearchRequest.builder(VALUE).build());
                } catch (MemoryException unsupported) {
                    // a provider without search
                }
                try {
                    provider.set("x".repeat(10_000), VALUE, Scope.PROJECT);
                } catch (MemoryException expected) {
                    // a rejected write: its message is not a log line, and must not be logged either
                }
                provider.history().ifPresent(h -> h.versions("secret-note", Scope.PROJECT));
                provider.delete("session-note", Scope.SESSION);
                provider.doctor();
            }
            try (MemoryProvider reopened = open.get()) {
                assertThat(reopened.get("secret-note", Scope.PROJECT)).map(MemoryEntry::value).contains(VALUE + " changed");
                reopened.clear(Scope.SESSION);
            }
        } finally {
            System.err.flush();
            System.setErr(original);
        }
        String logged = log.toString(StandardCharsets.UTF_8);
        original.print(logged);
        assertThat(logged).as("the captured log").contains("INFO").contains("capturing the log of a provider");
        assertThat(logged).as("what the provider logged").doesNotContain(VALUE).doesNotContain("Zq7xWv3kPj9");
        return logged;
    }
}
