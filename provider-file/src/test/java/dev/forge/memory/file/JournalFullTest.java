package dev.forge.memory.file;

import static dev.forge.memory.file.Stores.filesUnder;
import static dev.forge.memory.file.Stores.open;
import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;
import dev.forge.memory.support.files.AtomicFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Appending to the journal fails, as on a full disk: another process ({@link JournalFullChild}) runs with a file
 * size limit below the journal's size. Its writes must fail without changing any file, or every provider already
 * open would miss the change.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class JournalFullTest {

    @TempDir
    Path store;

    private static void assertUnchanged(MemoryProvider provider) {
        MemoryEntry a = provider.get("a", Scope.PROJECT).orElseThrow();
        assertThat(a.value()).isEqualTo("a one");
        assertThat(a.version()).isEqualTo(1);
        assertThat(provider.get("c", Scope.PROJECT).orElseThrow().value()).isEqualTo("c one");
        assertThat(provider.get("b", Scope.PROJECT)).isEmpty();
    }

    @Test
    void writes_and_commits_that_cannot_be_journaled_change_nothing() throws Exception {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("a", "a one", Scope.PROJECT);
            provider.set("c", "c one", Scope.PROJECT);
            // Grow the journal past the child's limit with lines about a project nobody here reads.
            StringBuilder padding = new StringBuilder();
            while (padding.length() < 64 * 1024) {
                padding.append("S\tproject/somebody-else\tpadding\n");
            }
            Files.writeString(store.resolve("journal"), padding, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            assertUnchanged(provider);

            // ulimit -f counts 512- or 1024-byte blocks depending on the shell: 16 of them is far below 64 KiB,
            // far above an entry file or a commit record.
            List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", "ulimit -f 16 && exec \"$@\"", "sh"));
            command.addAll(ChildJvm.command(JournalFullChild.class, store.toString()));
            Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output;
            try {
                output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(child.waitFor(5, TimeUnit.MINUTES)).isTrue();
            } finally {
                child.destroyForcibly();
            }
            assertThat(child.exitValue()).as("the child's output:%n%s", output).isZero();
            assertThat(output).contains("File too large");

            assertUnchanged(provider);
            try (FileMemoryProvider reopened = open(store)) {
                assertUnchanged(reopened);
            }
            assertThat(filesUnder(store)).noneMatch(f -> f.startsWith("transactions/") || f.contains(AtomicFiles.TEMP_PREFIX));
            assertThat(provider.set("a", "a two", Scope.PROJECT).version()).isEqualTo(2);
            assertThat(provider.query(Query.of("*"))).extracting(MemoryEntry::key).containsExactly("a", "c");
        }
    }
}
