package dev.forge.memory.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Hit;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.config.Memories;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's Java examples, kept compiling and true: the file provider found by name through ServiceLoader. */
class ReadmeExampleTest {

    @TempDir
    Path project;

    @TempDir
    Path forgeHome;

    @Test
    void the_readme_example_opens_the_configured_default_and_stores_and_finds_a_memory() {
        List<String> printed = new ArrayList<>();
        // As in README.md, with Memories.open(dir) spelled out so that the test never reads the real ~/.forge,
        // and System.out.println replaced by printed::add.
        try (MemoryProvider memory = Memories.builder().projectDirectory(project).environment(Map.of("FORGE_HOME", forgeHome.toString())).open()) {
            memory.set("decision:db", "We use SQLite for local state.", Scope.PROJECT, List.of("architecture"), Map.of("by", "ana"));
            memory.search(SearchRequest.keyword("sqlite state")).forEach(hit -> printed.add(hit.entry().key() + " " + hit.score()));
            memory.query(Query.of("decision:*")).forEach(entry -> printed.add(entry.key() + " v" + entry.version()));
        }
        assertThat(printed).hasSize(2);
        assertThat(printed.get(0)).startsWith("decision:db 0.");
        assertThat(printed.get(1)).isEqualTo("decision:db v1");
        // markdown is not on this class path, so the default falls back to the file provider under .forge/memory
        assertThat(project.resolve(".forge/memory/project/" + project.getFileName() + "/decision%3adb.json")).isRegularFile();
    }

    @Test
    void the_explicit_context_form_opens_the_file_provider_by_name() {
        ProviderContext context = ProviderContext.builder().projectId("my-app").baseDirectory(project).forgeHome(forgeHome).build();
        try (MemoryProvider memory = context.open("file", ProviderConfig.empty())) {
            memory.set("decision:db", "We use SQLite for local state.", Scope.PROJECT);
        }
        try (MemoryProvider reopened = context.open("file", ProviderConfig.empty())) {
            List<Hit> hits = reopened.search(SearchRequest.keyword("sqlite"));
            assertThat(hits).extracting(hit -> hit.entry().value()).containsExactly("We use SQLite for local state.");
        }
        assertThat(project.resolve(".forge/memory/project/my-app/decision%3adb.json")).isRegularFile();
    }
}
