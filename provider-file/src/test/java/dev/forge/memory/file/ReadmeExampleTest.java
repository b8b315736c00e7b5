package dev.forge.memory.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Hit;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's five-line example, kept compiling and true: the file provider found by name through ServiceLoader. */
class ReadmeExampleTest {

    @TempDir
    Path project;

    @Test
    void the_readme_example_stores_and_finds_a_memory() {
        List<String> printed = new ArrayList<>();
        // --- as in README.md, with System.out.println replaced by printed::add and the path made temporary
        ProviderContext context = ProviderContext.builder().projectId("my-app").baseDirectory(project).build();
        try (MemoryProvider memory = context.open("file", ProviderConfig.empty())) {
            memory.set("decision:db", "We use SQLite for local state.", Scope.PROJECT, List.of("architecture"), Map.of("by", "ana"));
            memory.search(SearchRequest.keyword("sqlite state")).forEach(hit -> printed.add(hit.entry().key() + " " + hit.score()));
        }
        // ---
        assertThat(printed).hasSize(1).allMatch(line -> line.startsWith("decision:db 0."));
        assertThat(project.resolve(".forge/memory/project/my-app/decision%3adb.json")).isRegularFile();
        try (MemoryProvider reopened = context.open("file", ProviderConfig.empty())) {
            List<Hit> hits = reopened.search(SearchRequest.keyword("sqlite"));
            assertThat(hits).extracting(hit -> hit.entry().value()).containsExactly("We use SQLite for local state.");
        }
    }
}
