package dev.forge.memory.vector;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.vector.internal.Documents;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A project index written before GLOBAL was shared (the fixture {@code legacy-global/}, made by the code of commit
 * 231491b; see its README) holds its own GLOBAL entries: opening it moves them into the shared index under the forge
 * home, exactly as they were, crash-safely, and keeps a key the shared index holds with other content aside, reported.
 */
class VectorLegacyGlobalTest {

    private static final String LEGACY_PROJECT = "legacy-project";

    @TempDir
    Path base;

    private Path legacyProject() throws IOException, URISyntaxException {
        Path project = base.resolve("legacy");
        copyFixture(project.resolve(".forge/vectors"));
        return project;
    }

    private static void copyFixture(Path to) throws IOException, URISyntaxException {
        Path fixture = Path.of(VectorLegacyGlobalTest.class.getResource("/legacy-global/vectors").toURI());
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(fixture)) {
            for (Path file : files.toList()) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
    }

    private MemoryProvider open(Path projectDirectory, String project) {
        ProviderContext context = VectorStores.context(projectDirectory, project, VectorStores.hashing(384, Map.of()))
                .toBuilder().sessionId("s1").forgeHome(base.resolve("forge-home")).build();
        return new VectorMemoryProviderFactory().open(context);
    }

    private MemoryProvider openOther() throws IOException {
        return open(Files.createDirectories(base.resolve("other")), "other-project");
    }

    /** How many documents of namespace {@code ns} the legacy project's own index holds. */
    private long inProjectIndex(Path project, String ns) throws IOException {
        try (FSDirectory directory = FSDirectory.open(project.resolve(".forge/vectors"));
             DirectoryReader reader = DirectoryReader.open(directory)) {
            return new IndexSearcher(reader).count(new TermQuery(new Term(Documents.NS, ns)));
        }
    }

    private static final String GLOBAL_NS = Documents.namespace(Scope.GLOBAL, "", "");

    @Test
    void old_global_entries_move_to_the_shared_index_keeping_versions_and_times() throws Exception {
        Path legacy = legacyProject();
        assertThat(inProjectIndex(legacy, GLOBAL_NS)).isEqualTo(3);
        MemoryEntry learned;
        try (MemoryProvider provider = open(legacy, LEGACY_PROJECT)) {
            learned = provider.get("learning:async-file-io", Scope.GLOBAL).orElseThrow();
            assertThat(learned.value()).isEqualTo("Always use aiofiles for async file operations. Regular open() blocks.");
            assertThat(learned.version()).isEqualTo(2);
            assertThat(learned.createdAt()).isEqualTo(Instant.parse("2026-03-01T10:00:00Z"));
            assertThat(learned.updatedAt()).isEqualTo(Instant.parse("2026-03-02T10:00:00Z"));
            assertThat(learned.tags()).containsExactly("python", "async", "io");
            assertThat(learned.metadata()).isEqualTo(Map.of("context", "seed 004"));
            assertThat(provider.get("build", Scope.PROJECT).orElseThrow().value()).isEqualTo("maven, run with ./mvnw");
            assertThat(provider.get("scratch", Scope.SESSION).orElseThrow().value()).isEqualTo("draft notes");
            assertThat(provider.doctor()).isEmpty();
        }
        assertThat(inProjectIndex(legacy, GLOBAL_NS)).isZero();
        assertThat(inProjectIndex(legacy, Documents.UNMOVED_GLOBAL)).isZero();
        try (MemoryProvider other = openOther()) {
            assertThat(other.get("learning:async-file-io", Scope.GLOBAL)).contains(learned);
            assertThat(other.query(Query.of("*", Scope.GLOBAL))).extracting(MemoryEntry::key)
                    .containsExactlyInAnyOrder("learning:async-file-io", "learning:conflict", "learning:same");
            assertThat(other.query(Query.of("*", Scope.PROJECT))).isEmpty();
        }
        try (MemoryProvider again = open(legacy, LEGACY_PROJECT)) {
            assertThat(again.get("learning:async-file-io", Scope.GLOBAL)).contains(learned);
            assertThat(again.query(Query.of("*", Scope.GLOBAL))).hasSize(3);
        }
    }

    @Test
    void a_key_the_shared_index_holds_with_other_content_stays_aside_is_reported_and_moves_once_the_shared_key_is_gone()
            throws Exception {
        Path legacy = legacyProject();
        MemoryEntry spaces;
        MemoryEntry same;
        try (MemoryProvider other = openOther()) {
            spaces = other.set("learning:conflict", "Prefer spaces.", Scope.GLOBAL);
            same = other.set("learning:same", "Commit small.", Scope.GLOBAL, List.of("git"), Map.of());
        }
        try (MemoryProvider provider = open(legacy, LEGACY_PROJECT)) {
            assertThat(provider.get("learning:conflict", Scope.GLOBAL)).contains(spaces);
            // the same content: the shared entry stays as it is and the project's copy goes
            assertThat(provider.get("learning:same", Scope.GLOBAL)).contains(same);
            List<StoreProblem> problems = provider.doctor();
            assertThat(problems).hasSize(1);
            assertThat(problems.get(0).location()).contains("learning:conflict");
            assertThat(problems.get(0).problem()).contains("not moved").contains("delete the shared key");
        }
        assertThat(inProjectIndex(legacy, GLOBAL_NS)).isZero();
        assertThat(inProjectIndex(legacy, Documents.UNMOVED_GLOBAL)).isEqualTo(1);
        try (MemoryProvider other = openOther()) {
            assertThat(other.delete("learning:conflict", Scope.GLOBAL)).isTrue();
        }
        try (MemoryProvider provider = open(legacy, LEGACY_PROJECT)) {
            MemoryEntry tabs = provider.get("learning:conflict", Scope.GLOBAL).orElseThrow();
            assertThat(tabs.value()).isEqualTo("Prefer tabs.");
            assertThat(tabs.version()).isEqualTo(1);
            assertThat(tabs.createdAt()).isEqualTo(Instant.parse("2026-03-01T10:00:00Z"));
            assertThat(provider.doctor()).isEmpty();
        }
        assertThat(inProjectIndex(legacy, Documents.UNMOVED_GLOBAL)).isZero();
    }

    @Test
    void a_crash_after_the_shared_commit_and_before_the_project_commit_is_finished_by_the_next_open() throws Exception {
        Path legacy = legacyProject();
        try (MemoryProvider provider = open(legacy, LEGACY_PROJECT)) {
            assertThat(provider.query(Query.of("*", Scope.GLOBAL))).hasSize(3);
        }
        // The project's index as the crash left it: its last commit, from before the move, beside the shared commit.
        Path index = legacy.resolve(".forge/vectors");
        try (Stream<Path> files = Files.list(index)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        copyFixture(index);
        assertThat(inProjectIndex(legacy, GLOBAL_NS)).isEqualTo(3);
        try (MemoryProvider provider = open(legacy, LEGACY_PROJECT)) {
            List<MemoryEntry> global = provider.query(Query.of("*", Scope.GLOBAL));
            assertThat(global).extracting(MemoryEntry::key)
                    .containsExactlyInAnyOrder("learning:async-file-io", "learning:conflict", "learning:same");
            assertThat(provider.get("learning:async-file-io", Scope.GLOBAL).orElseThrow().version()).isEqualTo(2);
            assertThat(provider.doctor()).isEmpty();
        }
        assertThat(inProjectIndex(legacy, GLOBAL_NS)).isZero();
        assertThat(inProjectIndex(legacy, Documents.UNMOVED_GLOBAL)).isZero();
    }
}
