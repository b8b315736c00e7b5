package dev.forge.memory.vector;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.Hit;
import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.spi.ProviderContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * GLOBAL in the index every project shares ({@code global_path}): one index when it names the project's, searches over
 * both indexes ranked as over one, clear errors for a forge home or global index that cannot be used (the project's
 * index untouched), and one embedding model for the shared index.
 */
class VectorSharedGlobalTest {

    @TempDir
    Path base;

    private Path forgeHome() {
        return base.resolve("forge-home");
    }

    private MemoryProvider open(String project, int dimension, Map<String, Object> extra) {
        return new VectorMemoryProviderFactory().open(context(project, dimension, extra, false));
    }

    private ProviderContext context(String project, int dimension, Map<String, Object> extra, boolean forReindex) {
        Path directory = base.resolve(project);
        return VectorStores.context(directory, project, VectorStores.hashing(dimension, extra)).toBuilder()
                .forgeHome(forgeHome()).openForReindex(forReindex).build();
    }

    @Test
    void a_global_path_naming_the_project_index_keeps_all_three_scopes_in_it_as_before() throws IOException {
        Map<String, Object> oneIndex = Map.of("global_path", ".forge/vectors");
        MemoryEntry learned;
        try (VectorMemoryProvider provider = (VectorMemoryProvider) open("a", 384, oneIndex)) {
            assertThat(provider.globalDirectory()).isEqualTo(provider.directory());
            learned = provider.set("learning:k", "kept with the project", Scope.GLOBAL);
            provider.set("build", "maven", Scope.PROJECT);
            assertThat(provider.query(Query.builder().scopes(Scope.PROJECT, Scope.GLOBAL).build())).hasSize(2);
            assertThat(provider.doctor()).isEmpty();
        }
        assertThat(forgeHome().resolve("vectors")).doesNotExist();
        try (MemoryProvider again = open("a", 384, oneIndex)) {
            assertThat(again.get("learning:k", Scope.GLOBAL)).contains(learned);
        }
        // the same project with the default global_path: its GLOBAL entry moves to the shared index
        try (MemoryProvider shared = open("a", 384, Map.of())) {
            assertThat(shared.get("learning:k", Scope.GLOBAL)).contains(learned);
        }
        try (MemoryProvider other = open("b", 384, Map.of())) {
            assertThat(other.get("learning:k", Scope.GLOBAL)).contains(learned);
        }
    }

    @Test
    void one_index_for_all_scopes_is_opened_like_the_shared_one_so_another_process_opens_it_too() throws Exception {
        Path directory = base.resolve("one");
        Path report = base.resolve("child-report.txt");
        try (MemoryProvider provider = VectorStores.open(directory, "p", Map.of("global_path", ".forge/vectors"))) {
            provider.set("k", "v", Scope.PROJECT);
            Process child = new ProcessBuilder(dev.forge.memory.conformance.ChildJvm.command(List.of("-Xmx128m"),
                    VectorChildOpener.class, directory.toString(), report.toString(), "one-index"))
                    .redirectErrorStream(true).redirectOutput(base.resolve("child-output.txt").toFile()).start();
            assertThat(child.waitFor(5, java.util.concurrent.TimeUnit.MINUTES)).as("child finished").isTrue();
            assertThat(child.exitValue()).as(Files.readString(base.resolve("child-output.txt"))).isZero();
            assertThat(Files.readString(report)).isEqualTo("opened true");
        }
    }

    /** The same entries in one index and split over two: every search mode ranks and scores them alike. */
    @Test
    void searches_over_both_indexes_rank_and_score_as_over_one_index() {
        List<List<String>> split = searchAll(Map.of(), "split");
        List<List<String>> one = searchAll(Map.of("global_path", ".forge/vectors"), "one");
        assertThat(split).isEqualTo(one);
        assertThat(split.get(0)).anyMatch(hit -> hit.startsWith("global:")).anyMatch(hit -> hit.startsWith("project:"));
    }

    private List<List<String>> searchAll(Map<String, Object> extra, String project) {
        try (MemoryProvider provider = new VectorMemoryProviderFactory().open(VectorStores.context(base.resolve(project),
                "p", VectorStores.hashing(384, extra)).toBuilder().forgeHome(base.resolve(project + "-forge-home")).build())) {
            provider.set("deploy", "deploy the harbour crane service on friday", Scope.PROJECT);
            provider.set("crane", "the harbour crane report is due", Scope.PROJECT);
            provider.set("learning:deploy", "never deploy on friday", Scope.GLOBAL);
            provider.set("learning:crane", "crane crane crane", Scope.GLOBAL);
            provider.set("learning:other", "unrelated advice about coffee", Scope.GLOBAL);
            List<List<String>> results = new ArrayList<>();
            for (SearchMode mode : SearchMode.values()) {
                List<Hit> hits = provider.search(SearchRequest.builder("deploy harbour crane friday").mode(mode)
                        .scopes(Scope.PROJECT, Scope.GLOBAL).limit(10).build());
                results.add(hits.stream().map(h -> h.entry().scope().id() + ":" + h.entry().key() + "=" + h.score()).toList());
            }
            return results;
        }
    }

    @Test
    void threads_of_two_projects_in_one_jvm_overwriting_one_global_key_get_a_version_each() {
        int writes = 24;
        try (MemoryProvider a = open("a", 384, Map.of()); MemoryProvider b = open("b", 384, Map.of())) {
            java.util.Set<Long> versions = java.util.concurrent.ConcurrentHashMap.newKeySet();
            VectorStores.writeInParallel(writes, i -> {
                MemoryProvider writer = i % 2 == 0 ? a : b;
                writer.set("own:" + i, "written by thread " + i, Scope.GLOBAL);
                versions.add(writer.set("shared", "overwritten by " + i, Scope.GLOBAL).version());
            });
            assertThat(versions).hasSize(writes).allMatch(v -> v >= 1 && v <= writes);
            assertThat(b.get("shared", Scope.GLOBAL).orElseThrow().version()).isEqualTo(writes);
            assertThat(a.query(Query.of("own:*", Scope.GLOBAL))).hasSize(writes);
        }
    }

    @Test
    void a_global_path_that_is_a_file_is_refused_with_what_to_do_and_the_project_index_is_untouched() throws IOException {
        try (MemoryProvider provider = open("a", 384, Map.of())) {
            provider.set("build", "maven", Scope.PROJECT);
        }
        Path file = Files.writeString(base.resolve("not-a-directory"), "x");
        assertThatThrownBy(() -> open("a", 384, Map.of("global_path", file.toString())))
                .isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("'global_path'");
        try (MemoryProvider provider = open("a", 384, Map.of())) {
            assertThat(provider.get("build", Scope.PROJECT).orElseThrow().value()).isEqualTo("maven");
        }
    }

    @Test
    void a_forge_home_that_cannot_hold_the_shared_index_is_refused_naming_forge_home_and_global_path() throws IOException {
        Files.writeString(forgeHome(), "a file where the forge home should be");
        assertThatThrownBy(() -> open("a", 384, Map.of()))
                .isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining(forgeHome().resolve("vectors").toString())
                .hasMessageContaining("$FORGE_HOME").hasMessageContaining("'global_path'");
        assertThat(Files.readString(forgeHome())).isEqualTo("a file where the forge home should be");
    }

    @Test
    void a_damaged_shared_index_is_refused_naming_it_and_left_as_it_is_and_the_project_index_stays_usable() throws IOException {
        try (MemoryProvider provider = open("a", 384, Map.of())) {
            provider.set("build", "maven", Scope.PROJECT);
            provider.set("learning:k", "v", Scope.GLOBAL);
        }
        Path shared = forgeHome().resolve("vectors");
        Path segments;
        try (Stream<Path> files = Files.list(shared)) {
            segments = files.filter(f -> f.getFileName().toString().startsWith("segments_")).findFirst().orElseThrow();
        }
        byte[] damaged = Files.readAllBytes(segments);
        damaged[damaged.length / 2] ^= 0x5a;
        Files.write(segments, damaged);
        assertThatThrownBy(() -> open("a", 384, Map.of()))
                .isInstanceOf(CorruptEntryException.class).hasMessageContaining(shared.toRealPath().toString());
        assertThat(Files.readAllBytes(segments)).isEqualTo(damaged);
        try (MemoryProvider provider = open("a", 384, Map.of("global_path", "own-global"))) {
            assertThat(provider.get("build", Scope.PROJECT).orElseThrow().value()).isEqualTo("maven");
        }
    }

    @Test
    void an_empty_shared_index_takes_the_model_of_the_next_project_and_the_first_entry_fixes_it() {
        try (MemoryProvider a = open("a", 384, Map.of())) {
            a.set("build", "maven", Scope.PROJECT);
        }
        MemoryEntry learned;
        try (MemoryProvider b = open("b", 256, Map.of())) {
            learned = b.set("learning:cache", "cache entries expire after one hour", Scope.GLOBAL);
        }
        assertThatThrownBy(() -> open("a", 384, Map.of())).isInstanceOf(IndexModelMismatchException.class);
        try (MemoryProvider c = open("c", 256, Map.of())) {
            assertThat(c.search(SearchRequest.builder("cache expiry").mode(SearchMode.SEMANTIC).scopes(Scope.GLOBAL).build()))
                    .extracting(Hit::entry).containsExactly(learned);
        }
    }

    @Test
    void another_model_is_refused_by_the_shared_index_naming_it_and_global_path_until_a_reindex_moves_it_to_that_model() {
        MemoryEntry learned;
        try (MemoryProvider a = open("a", 384, Map.of())) {
            learned = a.set("learning:cache", "cache entries expire after one hour", Scope.GLOBAL);
        }
        assertThatThrownBy(() -> open("b", 256, Map.of())).isInstanceOfSatisfying(IndexModelMismatchException.class,
                e -> assertThat(e.getMessage()).contains(forgeHome().resolve("vectors").toString())
                        .contains("'global_path'").contains("forge-memory reindex"));
        try (MemoryProvider b = new VectorMemoryProviderFactory().open(context("b", 256, Map.of(), true))) {
            assertThat(b.requireReindexing().reindex((done, total) -> { }).entries()).isEqualTo(1);
        }
        try (MemoryProvider b = open("b", 256, Map.of())) {
            assertThat(b.search(SearchRequest.builder("cache expiry").mode(SearchMode.SEMANTIC).scopes(Scope.GLOBAL).build()))
                    .extracting(Hit::entry).containsExactly(learned);
        }
        assertThatThrownBy(() -> open("a", 384, Map.of())).isInstanceOf(IndexModelMismatchException.class);
    }
}
