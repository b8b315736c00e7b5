package dev.forge.memory.markdown;

import static dev.forge.memory.markdown.Stores.frontMatter;
import static dev.forge.memory.markdown.Stores.id;
import static dev.forge.memory.markdown.Stores.memoryFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.conformance.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restore on disk: the files it leaves, what a crash at any point leaves (the key as it was, or as restored, never a
 * mix), relations of the key, and other providers and processes watching.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RestoreTest {

    private static final String KEY = "decision:db";
    private static final Instant T0 = Instant.parse("2020-01-02T03:04:05.006Z");

    @TempDir
    Path base;

    private static MemoryEntry version(String value, long version, int day) {
        return new MemoryEntry(KEY, value, Scope.PROJECT, List.of("imported"), Map.of("n", (int) version), T0,
                T0.plus(Duration.ofDays(day)), version);
    }

    /** Three versions, with a gap where a deletion was. */
    static List<MemoryEntry> chainA() {
        return List.of(version("a: first", 1, 1), version("a: second", 2, 2), version("a: after a deletion", 5, 3));
    }

    /** Two versions, numbered lower than the last of {@link #chainA()}. */
    static List<MemoryEntry> chainB() {
        return List.of(version("b: first", 1, 4), version("b: second", 2, 5));
    }

    private MarkdownMemoryProvider open() {
        return Stores.open(base);
    }

    private Path directory() {
        return Stores.projectDirectory(base);
    }

    private static List<MemoryEntry> history(MarkdownMemoryProvider provider) {
        return provider.requireHistory().versions(KEY, Scope.PROJECT);
    }

    @Test
    void a_restored_chain_is_one_line_of_plain_files_that_a_fresh_open_reads_back() {
        try (MarkdownMemoryProvider provider = open()) {
            provider.set(KEY, "written here once", Scope.PROJECT);
            provider.set(KEY, "written here twice", Scope.PROJECT);
            List<String> oldIds = memoryFiles(directory()).stream().map(Stores::id).toList();

            provider.requireRestoring().restore(chainA());

            List<Path> files = memoryFiles(directory());
            assertThat(files).hasSize(3).extracting(Stores::id).doesNotContainAnyElementsOf(oldIds);
            Map<Object, Map<String, Object>> byVersion = new LinkedHashMap<>();
            files.forEach(f -> byVersion.put(((Number) frontMatter(f).get("version")).longValue(), frontMatter(f)));
            assertThat(byVersion.values()).allSatisfy(fields -> assertThat(fields).doesNotContainKey("committed_by"));
            assertThat(byVersion.get(1L)).doesNotContainKeys("supersedes", "replaces");
            assertThat(byVersion.get(2L).get("supersedes")).isEqualTo(byVersion.get(1L).get("id"));
            assertThat(byVersion.get(2L)).doesNotContainKey("replaces");
            assertThat(byVersion.get(5L).get("supersedes")).isEqualTo(byVersion.get(2L).get("id"));
            assertThat(byVersion.get(5L).get("replaces")).asList().containsExactlyInAnyOrderElementsOf(oldIds);
            assertThat(provider.doctor()).isEmpty();
        }
        try (MarkdownMemoryProvider fresh = open()) {
            assertThat(history(fresh)).containsExactlyElementsOf(chainA());
            assertThat(fresh.get(KEY, Scope.PROJECT)).contains(chainA().get(2));
            assertThat(fresh.set(KEY, "written after the import", Scope.PROJECT).version()).isEqualTo(6);
            assertThat(fresh.doctor()).isEmpty();
        }
    }

    @Test
    void a_restore_that_stopped_before_writing_its_head_leaves_the_key_as_it_was_until_the_next_write_tidies_up() {
        List<MemoryEntry> before;
        try (MarkdownMemoryProvider provider = open()) {
            provider.set(KEY, "written here once", Scope.PROJECT);
            provider.set(KEY, "written here twice", Scope.PROJECT);
            before = history(provider);
        }
        // What a restore writes before its switch: higher versions than the key's, marked for a head never written.
        String head = "mem_" + UUID.randomUUID();
        Path first = pending(KEY, 7, Optional.empty(), head);
        pending(KEY, 8, Optional.of(id(first)), head);
        pending("never-restored", 1, Optional.empty(), "mem_" + UUID.randomUUID());

        try (MarkdownMemoryProvider fresh = open()) {
            assertThat(history(fresh)).containsExactlyElementsOf(before);
            assertThat(fresh.get(KEY, Scope.PROJECT)).contains(before.get(1));
            assertThat(fresh.get("never-restored", Scope.PROJECT)).isEmpty();
            assertThat(fresh.requireHistory().versions("never-restored", Scope.PROJECT)).isEmpty();
            assertThat(fresh.doctor()).hasSize(3)
                    .allSatisfy(p -> assertThat(p.problem()).contains("belongs to a restore that did not finish"));

            fresh.set("unrelated", "any write tidies up", Scope.PROJECT);

            assertThat(fresh.doctor()).isEmpty();
            assertThat(memoryFiles(directory())).hasSize(3);
            assertThat(fresh.set(KEY, "next", Scope.PROJECT).version()).isEqualTo(3);
        }
    }

    @Test
    void a_restore_that_stopped_before_removing_the_old_versions_shows_the_key_as_restored() throws Exception {
        Map<Path, byte[]> old = new LinkedHashMap<>();
        try (MarkdownMemoryProvider provider = open()) {
            provider.set(KEY, "written here once", Scope.PROJECT);
            provider.set(KEY, "written here twice", Scope.PROJECT);
            provider.set(KEY, "written here three times", Scope.PROJECT);
            for (Path file : memoryFiles(directory())) {
                old.put(file, Files.readAllBytes(file));
            }
            provider.requireRestoring().restore(chainB());
        }
        Path older = Stores.fileOf(directory(), KEY, 1);
        String head = id(Stores.fileOf(directory(), KEY, 2));
        // Put back what the restore removed, and the mark it cleared: as if it was killed right after its switch.
        old.forEach(Stores::create);
        Stores.writeInPlace(older, Stores.withField(Stores.read(older), "committed_by: " + head + "\n"));

        try (MarkdownMemoryProvider fresh = open()) {
            assertThat(history(fresh)).containsExactlyElementsOf(chainB());
            assertThat(fresh.get(KEY, Scope.PROJECT)).contains(chainB().get(1));
            assertThat(fresh.doctor()).hasSize(3)
                    .allSatisfy(p -> assertThat(p.problem()).contains("was replaced by the restore that wrote " + head));

            fresh.set("unrelated", "any write tidies up", Scope.PROJECT);

            assertThat(fresh.doctor()).isEmpty();
            assertThat(memoryFiles(directory())).hasSize(3);
            assertThat(history(fresh)).containsExactlyElementsOf(chainB());
        }
    }

    /** Writes by hand a version marked as a restore writes it before its head. */
    private Path pending(String key, long version, Optional<String> supersedes, String committedBy) {
        try {
            Files.createDirectories(directory());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Path file = Stores.newMemoryFile(directory());
        String text = "---\nid: " + id(file) + "\nkey: " + key + "\ncreated_at: 2020-01-02T03:04:05.006Z\n"
                + "updated_at: 2030-01-02T03:04:05.006Z\nversion: " + version + "\nscope: project\n"
                + supersedes.map(s -> "supersedes: " + s + "\n").orElse("") + "committed_by: " + committedBy
                + "\n---\nhalf restored " + version + "\n";
        Stores.create(file, text.getBytes(StandardCharsets.UTF_8));
        return file;
    }

    @Test
    void relations_to_and_from_a_restored_key_stay_across_restores_sessions_and_reopen() {
        EntryRef key = new EntryRef(KEY, Scope.PROJECT);
        EntryRef from = new EntryRef("uses-db", Scope.PROJECT);
        EntryRef to = new EntryRef("postgres", Scope.GLOBAL);
        EntryRef note = new EntryRef("note", Scope.SESSION);
        try (MarkdownMemoryProvider provider = open()) {
            provider.set(KEY, "we pick a database", Scope.PROJECT);
            provider.set(from.key(), "the service uses the database", Scope.PROJECT);
            provider.set(to.key(), "postgres facts", Scope.GLOBAL);
            provider.set(note.key(), "a note of this session", Scope.SESSION);
            MemoryGraph graph = provider.requireGraph();
            graph.relate(from, key, "depends_on");
            graph.relate(key, to, "refines");
            graph.relate(note, key, "mentions");
        }
        // Restored twice, by a provider of another session, which cannot see the note's file.
        try (MarkdownMemoryProvider other = MarkdownMemoryProvider.open(Stores.context(base, "s2"),
                dev.forge.memory.markdown.MarkdownConfig.defaults())) {
            other.requireRestoring().restore(chainA());
            other.requireRestoring().restore(chainB());
            assertThat(other.doctor()).isEmpty();
        }
        try (MarkdownMemoryProvider fresh = open()) {
            MemoryGraph graph = fresh.requireGraph();
            assertThat(graph.relations(key, Direction.BOTH)).extracting(Relation::from, Relation::type, Relation::to)
                    .containsExactlyInAnyOrder(
                            org.assertj.core.groups.Tuple.tuple(from, "depends_on", key),
                            org.assertj.core.groups.Tuple.tuple(key, "refines", to),
                            org.assertj.core.groups.Tuple.tuple(note, "mentions", key));

            fresh.set(KEY, "written after the import", Scope.PROJECT);
            assertThat(graph.relations(key, Direction.BOTH)).hasSize(3);

            fresh.delete(KEY, Scope.PROJECT);
            assertThat(graph.relations(from, Direction.OUTGOING)).isEmpty();
            fresh.requireRestoring().restore(chainA());
            assertThat(graph.relations(key, Direction.BOTH)).as("relations of a deleted key stay gone").isEmpty();
            assertThat(fresh.doctor()).isEmpty();
        }
    }

    @Test
    void a_version_a_file_cannot_hold_is_refused_before_anything_is_written() throws Exception {
        try (MarkdownMemoryProvider provider = open()) {
            provider.set(KEY, "already here", Scope.PROJECT);
            List<Path> before = memoryFiles(directory());
            Instant tooLate = Instant.parse("+10000-01-01T00:00:00Z");
            List<MemoryEntry> chain = List.of(chainA().get(0),
                    new MemoryEntry(KEY, "from the far future", Scope.PROJECT, List.of(), Map.of(), T0, tooLate, 2));

            assertThatThrownBy(() -> provider.requireRestoring().restore(chain)).isInstanceOf(InvalidEntryException.class)
                    .hasMessageContaining("Nothing was written");

            assertThat(memoryFiles(directory())).isEqualTo(before);
            assertThat(provider.get(KEY, Scope.PROJECT).orElseThrow().value()).isEqualTo("already here");
            assertThat(provider.doctor()).isEmpty();
        }
    }

    @Test
    void another_provider_sees_each_restore_at_its_next_call_and_never_anything_in_between() throws Exception {
        try (MarkdownMemoryProvider writer = open(); MarkdownMemoryProvider reader = open()) {
            writer.set(KEY, "the value before", Scope.PROJECT);
            MemoryEntry original = reader.get(KEY, Scope.PROJECT).orElseThrow();
            List<MemoryEntry> allowed = List.of(original, chainA().get(2), chainB().get(1));
            AtomicBoolean done = new AtomicBoolean();
            List<MemoryEntry> seen = new CopyOnWriteArrayList<>();
            Thread watcher = new Thread(() -> {
                while (!done.get()) {
                    reader.get(KEY, Scope.PROJECT).ifPresentOrElse(seen::add, () -> seen.add(null));
                }
            });
            watcher.start();
            try {
                for (int round = 0; round < 20; round++) {
                    List<MemoryEntry> chain = round % 2 == 0 ? chainA() : chainB();
                    writer.requireRestoring().restore(chain);
                    assertThat(history(reader)).containsExactlyElementsOf(chain);
                }
            } finally {
                done.set(true);
                watcher.join();
            }
            assertThat(seen).as("entries a reader saw during restores").isNotEmpty().allMatch(allowed::contains);
            assertThat(reader.doctor()).isEmpty();
        }
    }

    @Test
    void a_process_killed_while_restoring_leaves_one_whole_chain() throws Exception {
        Path signals = Files.createDirectories(base.resolve("signals"));
        try (MarkdownMemoryProvider provider = open()) {
            provider.set(KEY, "the value before", Scope.PROJECT);
        }
        for (int round = 0; round < 2; round++) {
            Files.deleteIfExists(signals.resolve("ready"));
            ProcessBuilder builder = new ProcessBuilder(ChildJvm.command(List.of("-XX:TieredStopAtLevel=1"),
                    ChildRestorer.class, base.toString(), signals.toString()));
            builder.redirectErrorStream(true);
            builder.redirectOutput(signals.resolve("child.log").toFile());
            Process child = builder.start();
            try {
                assertThat(ChildJvm.awaitFile(signals.resolve("ready"), Duration.ofMinutes(5)))
                        .as("the child restored once; its output:%n%s", Stores.read(signals.resolve("child.log")))
                        .isTrue();
                Thread.sleep(ThreadLocalRandom.current().nextInt(20, 400));
            } finally {
                child.destroyForcibly();
                assertThat(child.waitFor(5, TimeUnit.MINUTES)).isTrue();
            }

            try (MarkdownMemoryProvider fresh = open()) {
                assertThat(history(fresh)).isIn(chainA(), chainB());
                List<StoreProblem> problems = fresh.doctor();
                assertThat(problems).allSatisfy(p -> assertThat(p.problem())
                        .containsAnyOf("belongs to a restore that did not finish", "was replaced by the restore"));
                List<MemoryEntry> restored = new ArrayList<>(history(fresh));

                fresh.set("unrelated", "any write tidies up", Scope.PROJECT);

                assertThat(fresh.doctor()).isEmpty();
                assertThat(history(fresh)).isEqualTo(restored);
                fresh.requireHistory().purge("unrelated", Scope.PROJECT);
            }
        }
    }
}
