package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.Capability;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 004's GLOBAL examples (fixtures under {@code seeds/}, verbatim) on the sqlite provider: what one project stores
 * as a "cross-project learning" is searched and loaded "across all projects", from a second project in its own
 * directory with the same forge home.
 */
class Seed004GlobalScopeTest {

    @TempDir
    Path directory;

    private MemoryProvider projectA;
    private MemoryProvider projectB;

    @BeforeEach
    void openTwoProjects() throws IOException {
        projectA = Stores.open(directory);
        Path other = Files.createDirectories(directory.resolve("other-checkout"));
        projectB = new SqliteMemoryProviderFactory().open(ProviderContext.builder().projectId("project-b")
                .sessionId("session-b").baseDirectory(other).forgeHome(directory.resolve("forge-home"))
                .config(ProviderConfig.of(Map.of(), "test", "memory.config")).build());
    }

    @AfterEach
    void close() {
        projectA.close();
        projectB.close();
    }

    private static String fixture(String name) throws IOException {
        try (InputStream in = Seed004GlobalScopeTest.class.getResourceAsStream("/seeds/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String argument(String code, String name) {
        Matcher matcher = Pattern.compile(name + "=\"([^\"]*)\"").matcher(code);
        assertThat(matcher.find()).as("the fixture gives %s", name).isTrue();
        return matcher.group(1);
    }

    private static List<String> tags(String code) {
        Matcher matcher = Pattern.compile("tags=\\[([^\\]]*)]").matcher(code);
        assertThat(matcher.find()).isTrue();
        return Arrays.stream(matcher.group(1).split(",")).map(t -> t.trim().replace("\"", "")).toList();
    }

    @Test
    void the_global_scope_example_stored_in_one_project_is_found_from_another() throws IOException {
        String example = fixture("004-global-scope.py");
        assertThat(example).contains("scope=Scope.GLOBAL");
        MemoryEntry learning = projectA.set(argument(example, "key"), argument(example, "value"), Scope.GLOBAL,
                tags(example), Map.of());
        String searchText = argument(example, "semantic");

        // The seed searches by meaning; sqlite has keyword search only, and says what to do instead.
        assertThatThrownBy(() -> projectB.search(SearchRequest.builder(searchText).mode(SearchMode.SEMANTIC)
                .scopes(Scope.GLOBAL).build()))
                .isInstanceOfSatisfying(UnsupportedCapabilityException.class,
                        e -> assertThat(e.capability()).isEqualTo(Capability.SEMANTIC_SEARCH))
                .hasMessageContaining("choose a provider that lists it");
        assertThat(projectB.search(SearchRequest.builder(searchText).scopes(Scope.GLOBAL).build()))
                .extracting(hit -> hit.entry()).containsExactly(learning);
    }

    /** Seed 004's {@code capture_learning}, as its fixture writes it. */
    private static MemoryEntry captureLearning(MemoryProvider memory, String topic, String insight, String context) {
        String key = "learning:" + topic.replace(' ', '-');
        return memory.set(key, insight, Scope.GLOBAL, List.of("learning", topic), Map.of("context", context));
    }

    @Test
    void learnings_captured_in_one_project_are_loaded_as_context_in_another() throws IOException {
        assertThat(fixture("004-learning-capture.py")).contains("key = f\"learning:{topic.replace(' ', '-')}\"",
                "scope=Scope.GLOBAL", "tags=[\"learning\", topic]", "metadata={\"context\": context}");
        String loading = fixture("004-context-loading.py");
        assertThat(loading).contains("pattern=\"*\",\n        scope=Scope.PROJECT,\n        limit=10",
                "pattern=\"learning:*\",\n        scope=Scope.GLOBAL,\n        limit=5");

        MemoryEntry first = captureLearning(projectA, "async file io", "Use aiofiles in async code.", "project-a review");
        for (int i = 1; i <= 5; i++) {
            captureLearning(projectA, "topic " + i, "insight " + i, "project-a");
        }
        projectA.set("build", "maven", Scope.PROJECT);
        projectB.set("build", "gradle", Scope.PROJECT);

        // load_session_context, in project B.
        List<MemoryEntry> recentProject = projectB.query(Query.builder().pattern("*").scopes(Scope.PROJECT).limit(10).build());
        List<MemoryEntry> recentGlobal = projectB.query(Query.builder().pattern("learning:*").scopes(Scope.GLOBAL).limit(5).build());
        assertThat(recentProject).extracting(MemoryEntry::value).containsExactly("gradle");
        assertThat(recentGlobal).hasSize(5).first().isEqualTo(first);
        assertThat(first.metadata()).isEqualTo(Map.of("context", "project-a review"));
        assertThat(first.tags()).containsExactly("learning", "async file io");
    }
}
