package dev.forge.memory.hybrid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.conformance.EmbeddingService;
import dev.forge.memory.conformance.TransferFixture;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.Importer;
import dev.forge.memory.transfer.TransferFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code doctor()} names every entry whose copy in a child (the search child, and the relationships child, which keeps
 * copies too) is missing, older than the storage's or left over: what a process killed between the storage's write
 * and the child's leaves, which no later call notices. The storage is written alone here (as such a process did, or
 * another process that opened it directly), on real sqlite and vector stores. A reindex repairs it; an import of an
 * export that matches the storage changes nothing (it counts the entries unchanged) and doctor still names them.
 */
class HybridDoctorTest {

    @TempDir
    Path directory;

    private ProviderContext context() {
        return ProviderContext.builder().projectId("project-a").sessionId("session-1").baseDirectory(directory)
                .forgeHome(directory.resolve("forge-home")).registry(ProviderRegistry.load()).build();
    }

    private static Map<String, Object> config(boolean relationships) {
        return HybridStores.config(Map.of("provider", "sqlite"), HybridStores.vector(),
                relationships ? Map.of("provider", "sqlite", "path", ".forge/relations.db") : null, Map.of());
    }

    private HybridMemoryProvider router(boolean relationships) {
        return HybridStores.open(context(), config(relationships));
    }

    /** The storage alone, as a process writing through the router and killed before the children's update left it. */
    private MemoryProvider storageAlone() {
        return context().open("sqlite", ProviderConfig.of(Map.of(), "test.yaml", "memory.config.storage"));
    }

    private static List<String> keyword(MemoryProvider provider, String text) {
        return provider.search(SearchRequest.builder(text).mode(SearchMode.KEYWORD).build()).stream()
                .map(h -> h.entry().key()).toList();
    }

    private static void seed(MemoryProvider router) {
        router.set("kept", "An entry that both stores hold alike", Scope.PROJECT);
        router.set("changed", "The first text of an entry", Scope.PROJECT);
        router.set("dropped", "An entry the storage loses alone", Scope.PROJECT);
        router.set("global", "A global entry both stores hold", Scope.GLOBAL);
    }

    /** What a killed process left: a new entry, an overwrite and a delete in the storage only. */
    private void writeStorageAlone() {
        try (MemoryProvider storage = storageAlone()) {
            storage.set("added", "An entry written to the storage alone", Scope.PROJECT);
            storage.set("changed", "The second text, in the storage alone", Scope.PROJECT);
            storage.delete("dropped", Scope.PROJECT);
        }
    }

    private static void assertNames(List<StoreProblem> problems, String label, String... expected) {
        assertThat(problems).as("%s", problems).hasSize(expected.length);
        for (String text : expected) {
            assertThat(problems).anySatisfy(problem -> {
                assertThat(problem.location()).isEqualTo(label);
                assertThat(problem.problem()).contains(text).contains("forge-memory reindex");
            });
        }
    }

    @Test
    void doctor_names_each_missing_older_or_left_over_copy_of_the_search_child_and_a_reindex_repairs_them() {
        try (MemoryProvider router = router(false)) {
            seed(router);
            assertThat(router.doctor()).isEmpty();
        }
        writeStorageAlone();
        try (HybridMemoryProvider router = router(false)) {
            assertThat(keyword(router, "written")).as("the search child misses it").isEmpty();
            assertNames(router.doctor(), "search provider 'vector'",
                    "has no copy of 'added' in project scope, which the storage has: searches cannot find it",
                    "has an older copy of 'changed' in project scope than the storage",
                    "still has 'dropped' in project scope, which the storage no longer has");

            router.requireReindexing().reindex();
            assertThat(router.doctor()).isEmpty();
            assertThat(keyword(router, "written")).containsExactly("added");
            assertThat(keyword(router, "second text")).containsExactly("changed");
        }
    }

    @Test
    void the_copies_of_the_relationships_child_are_checked_too() {
        try (MemoryProvider router = router(true)) {
            seed(router);
        }
        writeStorageAlone();
        try (HybridMemoryProvider router = router(true)) {
            List<StoreProblem> problems = router.doctor();
            assertThat(problems).hasSize(6);
            assertNames(problems.stream().filter(p -> p.location().startsWith("relationships")).toList(),
                    "relationships provider 'sqlite'", "has no copy of 'added' in project scope",
                    "has an older copy of 'changed'", "still has 'dropped'");
            router.requireReindexing().reindex();
            assertThat(router.doctor()).isEmpty();
        }
    }

    @Test
    void updates_waiting_in_the_outbox_are_listed_once_not_also_as_missing_copies() throws IOException {
        try (EmbeddingService service = new EmbeddingService()) {
            Map<String, Object> config = HybridStores.config(Map.of("provider", "sqlite"),
                    Map.of("provider", "vector", "embedding", service.embedding()), null, Map.of());
            try (HybridMemoryProvider router = HybridStores.open(context(), config)) {
                router.set("before", "Written while the service answers", Scope.PROJECT);
                service.stop();
                router.set("waiting", "Written while the embedding service is gone", Scope.PROJECT);
                List<StoreProblem> problems = router.doctor();
                assertThat(problems).as("%s", problems).singleElement().satisfies(problem ->
                        assertThat(problem.problem()).contains("update of 'waiting'").contains("waits for the child"));
            }
        }
    }

    /**
     * After such a crash, an export taken from the router matches the storage; importing it again changes nothing (each
     * entry is counted unchanged, and no version is added), so the import does not repair the search child, and doctor
     * keeps naming the entry until a reindex. Repairing derived copies is the reindex's job: an import writes the
     * storage, the source of truth, only where the file differs from it.
     */
    @Test
    void an_import_of_the_same_export_counts_the_entries_unchanged_and_doctor_still_names_them() throws IOException {
        try (MemoryProvider router = router(false)) {
            seed(router);
        }
        writeStorageAlone();
        try (HybridMemoryProvider router = router(false)) {
            Path file = Files.write(directory.resolve("export.jsonl"),
                    TransferFixture.exportBytes(router, TransferFormat.JSONL));
            ImportResult result = Importer.builder().build().importFile(file, router);
            assertThat(result.unchanged()).isEqualTo(4);
            assertThat(result.created() + result.overwritten()).isZero();
            assertThat(router.get("changed", Scope.PROJECT).orElseThrow().version()).isEqualTo(2);

            assertNames(router.doctor(), "search provider 'vector'", "'added'", "'changed'", "'dropped'");
            router.requireReindexing().reindex();
            assertThat(router.doctor()).isEmpty();
        }
    }
}
