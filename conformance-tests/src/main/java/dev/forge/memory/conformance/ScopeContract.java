package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import org.junit.jupiter.api.Test;

/**
 * Scopes and isolation: several providers open on one store, for different projects and sessions, never see
 * or touch each other's PROJECT and SESSION entries; GLOBAL entries are shared by all.
 */
public abstract class ScopeContract extends ContractSupport {

    @Test
    void project_entries_are_invisible_to_another_project() {
        provider.set("build", "maven", Scope.PROJECT);
        MemoryProvider other = open("project-b", SESSION);
        assertThat(other.get("build", Scope.PROJECT)).isEmpty();
        assertThat(other.query(Query.builder().build())).isEmpty();
    }

    @Test
    void same_key_in_two_projects_holds_independent_values_and_versions() {
        MemoryProvider other = open("project-b", "session-2");
        provider.set("build", "maven", Scope.PROJECT);
        provider.set("build", "maven 3.9", Scope.PROJECT);
        other.set("build", "gradle", Scope.PROJECT);
        assertThat(provider.get("build", Scope.PROJECT).orElseThrow().value()).isEqualTo("maven 3.9");
        assertThat(provider.get("build", Scope.PROJECT).orElseThrow().version()).isEqualTo(2);
        assertThat(other.get("build", Scope.PROJECT).orElseThrow().value()).isEqualTo("gradle");
        assertThat(other.get("build", Scope.PROJECT).orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void delete_and_clear_never_touch_another_projects_entries() {
        MemoryProvider other = open("project-b", "session-2");
        provider.set("k", "mine", Scope.PROJECT);
        other.set("k", "theirs", Scope.PROJECT);
        other.set("k2", "theirs too", Scope.PROJECT);
        assertThat(provider.delete("k2", Scope.PROJECT)).isFalse();
        assertThat(provider.clear(Scope.PROJECT)).isEqualTo(1);
        assertThat(other.query(Query.of("*", Scope.PROJECT))).hasSize(2);
    }

    @Test
    void global_entries_are_shared_between_projects() {
        assertGlobalOverwriteIsShared(open("project-b", "session-2"));
    }

    @Test
    void clear_of_global_removes_global_entries_for_every_project() {
        MemoryProvider other = open("project-b", "session-2");
        provider.set("g1", "x", Scope.GLOBAL);
        other.set("g2", "y", Scope.GLOBAL);
        other.set("p", "z", Scope.PROJECT);
        assertThat(provider.clear(Scope.GLOBAL)).isEqualTo(2);
        assertThat(other.query(Query.of("*", Scope.GLOBAL))).isEmpty();
        assertThat(other.get("p", Scope.PROJECT)).isPresent();
    }

    @Test
    void session_entries_are_invisible_to_another_session_of_the_same_project() {
        provider.set("scratch", "draft", Scope.SESSION);
        MemoryProvider otherSession = open(PROJECT, "session-2");
        assertThat(otherSession.get("scratch", Scope.SESSION)).isEmpty();
        assertThat(otherSession.query(Query.of("*", Scope.SESSION))).isEmpty();
    }

    @Test
    void session_entries_are_visible_to_a_second_provider_of_the_same_session() {
        provider.set("scratch", "draft", Scope.SESSION);
        MemoryProvider sameSession = open(PROJECT, SESSION);
        assertThat(sameSession.get("scratch", Scope.SESSION).orElseThrow().value()).isEqualTo("draft");
    }

    @Test
    void project_entries_are_shared_by_sessions_of_one_project() {
        provider.set("fact", "shared", Scope.PROJECT);
        MemoryProvider otherSession = open(PROJECT, "session-2");
        assertThat(otherSession.get("fact", Scope.PROJECT).orElseThrow().value()).isEqualTo("shared");
    }

    @Test
    void clear_of_session_removes_only_this_sessions_entries() {
        MemoryProvider otherSession = open(PROJECT, "session-2");
        provider.set("a", "1", Scope.SESSION);
        provider.set("b", "2", Scope.SESSION);
        otherSession.set("a", "theirs", Scope.SESSION);
        assertThat(provider.clear(Scope.SESSION)).isEqualTo(2);
        assertThat(otherSession.get("a", Scope.SESSION).orElseThrow().value()).isEqualTo("theirs");
    }

    @Test
    void end_session_removes_session_entries_and_keeps_project_and_global() {
        provider.set("s1", "x", Scope.SESSION);
        provider.set("s2", "x", Scope.SESSION);
        provider.set("p", "x", Scope.PROJECT);
        provider.set("g", "x", Scope.GLOBAL);
        assertThat(provider.endSession()).isEqualTo(2);
        assertThat(keys(everything())).containsExactly("g", "p");
    }

    @Test
    void end_session_leaves_other_sessions_alone() {
        MemoryProvider otherSession = open(PROJECT, "session-2");
        otherSession.set("theirs", "x", Scope.SESSION);
        provider.set("mine", "x", Scope.SESSION);
        provider.endSession();
        assertThat(otherSession.get("theirs", Scope.SESSION)).isPresent();
    }

    @Test
    void query_across_all_scopes_sees_only_own_project_own_session_and_global() {
        MemoryProvider other = open("project-b", "session-2");
        other.set("their-session", "x", Scope.SESSION);
        other.set("their-project", "x", Scope.PROJECT);
        other.set("shared", "x", Scope.GLOBAL);
        provider.set("my-session", "x", Scope.SESSION);
        provider.set("my-project", "x", Scope.PROJECT);
        assertThat(keys(everything())).containsExactly("my-project", "my-session", "shared");
    }

    @Test
    void writes_of_one_provider_are_seen_by_another_provider_of_the_same_project() {
        MemoryProvider second = open(PROJECT, "session-2");
        provider.set("k", "v1", Scope.PROJECT);
        assertThat(second.get("k", Scope.PROJECT).orElseThrow().value()).isEqualTo("v1");
        MemoryEntry overwritten = second.set("k", "v2", Scope.PROJECT);
        assertThat(overwritten.version()).isEqualTo(2);
        assertThat(provider.get("k", Scope.PROJECT)).contains(overwritten);
        assertThat(provider.query(Query.of("*", Scope.PROJECT))).containsExactly(overwritten);
        assertThat(second.delete("k", Scope.PROJECT)).isTrue();
        assertThat(provider.get("k", Scope.PROJECT)).isEmpty();
        assertThat(provider.query(Query.of("*", Scope.PROJECT))).isEmpty();
    }

    @Test
    void project_ids_that_look_like_paths_stay_isolated() {
        MemoryProvider dotted = open("../" + PROJECT, "session-2");
        MemoryProvider nested = open(PROJECT + "/..", "session-3");
        MemoryProvider upper = open(PROJECT.toUpperCase(java.util.Locale.ROOT), "session-4");
        provider.set("k", "plain", Scope.PROJECT);
        dotted.set("k", "dotted", Scope.PROJECT);
        nested.set("k", "nested", Scope.PROJECT);
        upper.set("k", "upper", Scope.PROJECT);
        assertThat(provider.get("k", Scope.PROJECT).orElseThrow().value()).isEqualTo("plain");
        assertThat(dotted.get("k", Scope.PROJECT).orElseThrow().value()).isEqualTo("dotted");
        assertThat(nested.get("k", Scope.PROJECT).orElseThrow().value()).isEqualTo("nested");
        assertThat(upper.get("k", Scope.PROJECT).orElseThrow().value()).isEqualTo("upper");
    }

    @Test
    void session_ids_that_differ_only_in_case_or_punctuation_stay_isolated() {
        MemoryProvider upper = open(PROJECT, SESSION.toUpperCase(java.util.Locale.ROOT));
        MemoryProvider underscored = open(PROJECT, SESSION.replace('-', '_'));
        provider.set("k", "mine", Scope.SESSION);
        assertThat(upper.get("k", Scope.SESSION)).isEmpty();
        assertThat(underscored.get("k", Scope.SESSION)).isEmpty();
    }

    @Test
    void the_same_session_id_in_two_projects_keeps_two_separate_sessions() {
        MemoryProvider otherProject = open("project-b", SESSION);
        provider.set("scratch", "mine", Scope.SESSION);
        assertThat(otherProject.get("scratch", Scope.SESSION)).isEmpty();
        otherProject.set("scratch", "theirs", Scope.SESSION);
        assertThat(otherProject.endSession()).isEqualTo(1);
        assertThat(provider.get("scratch", Scope.SESSION).orElseThrow().value()).isEqualTo("mine");
    }

    @Test
    void entries_report_the_scope_they_were_written_to() {
        provider.set("s", "x", Scope.SESSION);
        provider.set("p", "x", Scope.PROJECT);
        provider.set("g", "x", Scope.GLOBAL);
        assertThat(provider.query(Query.of("*", Scope.SESSION))).extracting(MemoryEntry::scope).containsExactly(Scope.SESSION);
        assertThat(provider.query(Query.of("*", Scope.GLOBAL))).extracting(MemoryEntry::scope).containsExactly(Scope.GLOBAL);
        assertThat(provider.get("p", Scope.PROJECT).orElseThrow().scope()).isEqualTo(Scope.PROJECT);
    }
}
