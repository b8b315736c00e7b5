package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.spi.ProviderContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * GLOBAL is one store per user (seed 004: "cross-project learnings", searched "across all projects"): two projects in
 * two directories, with their own project stores, share GLOBAL through the user's forge home
 * ({@link ProviderContext#forgeHome()}), while their PROJECT and SESSION entries stay apart.
 *
 * <p>Unlike {@link ScopeContract}, whose providers all open one store directory, the second project here has a base
 * directory of its own, as a second checkout on the same machine would. A provider whose stores cannot be shared by
 * directory (the in-memory one lives in one JVM's heap) says so with {@link #sharesGlobalThroughForgeHome()}, and the
 * contract is skipped with that reason.
 */
public abstract class SharedGlobalContract extends ContractSupport {

    /** The second project: its own id, session and base directory, the same forge home. */
    private MemoryProvider otherProject;

    /**
     * Whether the provider keeps GLOBAL in a store under the forge home that every project's provider opens. True for
     * every persistent provider; a provider returning false has GLOBAL per store and is skipped here.
     */
    protected boolean sharesGlobalThroughForgeHome() {
        return true;
    }

    @BeforeEach
    final void openTheOtherProject() {
        assumeTrue(sharesGlobalThroughForgeHome(), "provider '" + provider.name()
                + "' does not keep GLOBAL under the forge home (sharesGlobalThroughForgeHome() is false)");
        otherProject = openInOtherDirectory("project-b", "session-b");
    }

    /** The directory the second project's relative paths resolve against: beside the first, not inside its store. */
    private Path otherProjectDirectory() {
        try {
            return Files.createDirectories(storeDirectory.resolve("other-checkout"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private MemoryProvider openInOtherDirectory(String projectId, String sessionId) {
        ProviderContext context = context(projectId, sessionId).toBuilder().baseDirectory(otherProjectDirectory()).build();
        MemoryProvider p = openProvider(context);
        closeAfterTest(p);
        return p;
    }

    @Test
    void global_written_in_one_project_is_read_in_another_project_directory() {
        MemoryEntry learned = provider.set("learning:async-file-io",
                "Always use aiofiles for async file operations. Regular open() blocks.", Scope.GLOBAL,
                List.of("python", "async", "io"), Map.of("context", "seed 004"));
        assertThat(otherProject.get("learning:async-file-io", Scope.GLOBAL)).contains(learned);
        assertThat(otherProject.query(Query.of("learning:*", Scope.GLOBAL))).containsExactly(learned);
    }

    @Test
    void global_written_in_one_project_is_found_by_keyword_search_in_another() {
        provider.set("learning:async-file-io", "Always use aiofiles for async file operations.", Scope.GLOBAL);
        List<String> found = hitKeys(otherProject.search(SearchRequest.builder("aiofiles").scopes(Scope.GLOBAL).build()));
        assertThat(found).containsExactly("learning:async-file-io");
    }

    @Test
    void an_overwrite_from_the_other_project_continues_the_same_versions() {
        assertGlobalOverwriteIsShared(otherProject);
    }

    @Test
    void project_and_session_entries_stay_in_their_own_project() {
        provider.set("build", "maven", Scope.PROJECT);
        provider.set("scratch", "draft", Scope.SESSION);
        otherProject.set("build", "gradle", Scope.PROJECT);
        assertThat(otherProject.get("build", Scope.PROJECT).orElseThrow().value()).isEqualTo("gradle");
        assertThat(otherProject.get("scratch", Scope.SESSION)).isEmpty();
        assertThat(keys(otherProject.query(Query.builder().build()))).containsExactly("build");
        assertThat(provider.get("build", Scope.PROJECT).orElseThrow().value()).isEqualTo("maven");
    }

    @Test
    void a_delete_and_a_clear_of_global_are_seen_by_the_other_project() {
        provider.set("g1", "x", Scope.GLOBAL);
        provider.set("g2", "y", Scope.GLOBAL);
        otherProject.set("p", "z", Scope.PROJECT);
        assertThat(otherProject.delete("g1", Scope.GLOBAL)).isTrue();
        assertThat(provider.get("g1", Scope.GLOBAL)).isEmpty();
        assertThat(otherProject.clear(Scope.GLOBAL)).isEqualTo(1);
        assertThat(provider.query(Query.of("*", Scope.GLOBAL))).isEmpty();
        assertThat(otherProject.get("p", Scope.PROJECT)).isPresent();
    }

    @Test
    void global_survives_a_reopen_of_both_projects() {
        MemoryEntry learned = otherProject.set("learning:k", "v", Scope.GLOBAL);
        otherProject.close();
        MemoryProvider again = openInOtherDirectory("project-b", "session-c");
        assertThat(reopen().get("learning:k", Scope.GLOBAL)).contains(learned);
        assertThat(again.get("learning:k", Scope.GLOBAL)).contains(learned);
    }
}
