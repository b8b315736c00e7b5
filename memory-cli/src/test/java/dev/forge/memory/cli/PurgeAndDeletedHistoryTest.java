package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code purge}, and {@code history} of deleted keys, on the default (markdown) provider, which records deletions
 * as tombstones; and both on providers that do not.
 */
class PurgeAndDeletedHistoryTest {

    private static final String ISO_INSTANT = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z";

    private CliHarness cli;

    @BeforeEach
    void setUp(@TempDir Path root) {
        cli = new CliHarness(root);
    }

    private static List<Long> versionNumbers(JsonNode history) {
        List<Long> numbers = new ArrayList<>();
        history.path("versions").forEach(v -> numbers.add(v.path("version").asLong()));
        return numbers;
    }

    @Test
    void history_of_a_deleted_key_lists_its_versions_and_says_it_is_deleted() {
        cli.ok("set", "k", "first");
        cli.ok("set", "k", "second");
        cli.ok("delete", "k");
        cli.fails(ExitCodes.NOT_FOUND, "get", "k");
        assertThat(cli.ok("history", "k").out().lines().toList()).satisfiesExactly(
                line -> assertThat(line).matches("v1 " + ISO_INSTANT + " first"),
                line -> assertThat(line).matches("v2 " + ISO_INSTANT + " second"),
                line -> assertThat(line).isEqualTo("(deleted)"));
        JsonNode history = cli.ok("history", "k", "--json").json();
        assertThat(history.path("deleted").asBoolean(false)).isTrue();
        assertThat(versionNumbers(history)).containsExactly(1L, 2L);
    }

    @Test
    void history_marks_where_a_key_was_deleted_and_written_again() {
        cli.ok("set", "k", "before");
        cli.ok("delete", "k");
        cli.ok("set", "k", "after");
        assertThat(cli.ok("history", "k").out().lines().toList()).satisfiesExactly(
                line -> assertThat(line).matches("v1 " + ISO_INSTANT + " before"),
                line -> assertThat(line).isEqualTo("(deleted)"),
                line -> assertThat(line).matches("v3 " + ISO_INSTANT + " after"));
        JsonNode history = cli.ok("history", "k", "--json").json();
        assertThat(history.path("deleted").asBoolean(true)).isFalse();
        assertThat(versionNumbers(history)).as("the tombstone took version 2").containsExactly(1L, 3L);
        assertThat(cli.ok("get", "k").out()).isEqualTo("after\n");
    }

    @Test
    void history_of_a_live_key_says_it_is_not_deleted() {
        cli.ok("set", "k", "v");
        JsonNode history = cli.ok("history", "k", "--json").json();
        assertThat(history.path("deleted").isBoolean()).isTrue();
        assertThat(history.path("deleted").asBoolean()).isFalse();
        assertThat(cli.ok("history", "k").out()).doesNotContain("(deleted)");
    }

    @Test
    void purge_of_a_key_erases_every_version_and_the_tombstone() {
        cli.ok("set", "k", "private", "--tag", "t");
        cli.ok("set", "k", "still private");
        cli.ok("delete", "k");
        assertThat(cli.ok("purge", "k").out()).isEqualTo("Purged key 'k' (project): every version is gone.\n");
        cli.fails(ExitCodes.NOT_FOUND, "history", "k");
        cli.fails(ExitCodes.NOT_FOUND, "get", "k");
        assertThat(cli.ok("set", "k", "new", "--json").json().path("version").asLong()).as("a purged key starts again").isEqualTo(1);
    }

    @Test
    void purge_of_a_live_key_removes_it_too() {
        cli.ok("set", "k", "v", "--scope", "global");
        cli.ok("set", "other", "stays", "--scope", "global");
        JsonNode purged = cli.ok("purge", "k", "--scope", "global", "--json").json();
        assertThat(purged.path("key").asText()).isEqualTo("k");
        assertThat(purged.path("scope").asText()).isEqualTo("global");
        assertThat(purged.path("purged").asBoolean(false)).isTrue();
        cli.fails(ExitCodes.NOT_FOUND, "get", "k", "--scope", "global");
        cli.fails(ExitCodes.NOT_FOUND, "history", "k", "--scope", "global");
        assertThat(cli.ok("get", "other", "--scope", "global").out()).isEqualTo("stays\n");
    }

    @Test
    void purge_of_a_key_never_stored_exits_1_like_delete() {
        CliHarness.Result result = cli.fails(ExitCodes.NOT_FOUND, "purge", "nope");
        assertThat(result.err()).isEqualTo("forge-memory: Nothing stored under 'nope' in scope project: no entry and no history.\n");
        cli.ok("set", "k", "v");
        cli.ok("purge", "k");
        cli.fails(ExitCodes.NOT_FOUND, "purge", "k");
    }

    @Test
    void purge_all_erases_every_key_of_the_scope_deleted_ones_included_and_nothing_else() {
        cli.ok("set", "a", "1");
        cli.ok("set", "b", "2");
        cli.ok("delete", "b");
        cli.ok("set", "g", "global", "--scope", "global");
        assertThat(cli.ok("purge", "--all", "--scope", "project", "--yes").out())
                .isEqualTo("Purged 2 keys from scope project: every version is gone.\n");
        cli.fails(ExitCodes.NOT_FOUND, "history", "a");
        cli.fails(ExitCodes.NOT_FOUND, "history", "b");
        assertThat(cli.ok("get", "g", "--scope", "global").out()).isEqualTo("global\n");
        cli.ok("history", "g", "--scope", "global");

        JsonNode purged = cli.ok("purge", "--all", "--scope", "global", "--yes", "--json").json();
        assertThat(purged.path("scope").asText()).isEqualTo("global");
        assertThat(purged.path("purged").asInt()).isEqualTo(1);
        assertThat(cli.ok("purge", "--all", "--scope", "global", "--yes").out()).as("nothing left is not an error")
                .isEqualTo("Purged 0 keys from scope global: every version is gone.\n");
    }

    @Test
    void purge_all_without_scope_is_refused_and_erases_nothing() {
        cli.ok("set", "k", "v");
        assertThat(cli.fails(ExitCodes.USAGE, "purge", "--all").err()).contains("--all").contains("--scope")
                .contains("'forge-memory purge --help'");
        cli.ok("get", "k");
        cli.ok("history", "k");
    }

    @Test
    void purge_all_without_yes_is_refused_and_erases_nothing() {
        cli.ok("set", "k", "v");
        assertThat(cli.fails(ExitCodes.USAGE, "purge", "--all", "--scope", "project").err()).contains("--yes");
        cli.ok("get", "k");
        cli.ok("history", "k");
    }

    @Test
    void purge_needs_exactly_one_of_a_key_and_all() {
        cli.ok("set", "k", "v");
        assertThat(cli.fails(ExitCodes.USAGE, "purge").err()).contains("KEY").contains("--all");
        assertThat(cli.fails(ExitCodes.USAGE, "purge", "k", "--all", "--scope", "project").err()).contains("not both");
        cli.ok("get", "k");
    }

    @Test
    void on_a_provider_without_tombstones_history_ends_with_delete_and_purge_still_erases() {
        cli.ok("--memory-provider", "file", "set", "k", "v");
        cli.ok("--memory-provider", "file", "delete", "k");
        cli.fails(ExitCodes.NOT_FOUND, "--memory-provider", "file", "history", "k");
        cli.ok("--memory-provider", "file", "set", "k", "again");
        cli.ok("--memory-provider", "file", "purge", "k");
        cli.fails(ExitCodes.NOT_FOUND, "--memory-provider", "file", "get", "k");
    }

    @Test
    void a_provider_without_history_exits_5_for_purge_and_history_alike() {
        NoHistoryProviderFactory.pluginJar(cli.project.resolve(".forge/plugins"));
        String provider = NoHistoryProviderFactory.NAME;
        String history = cli.fails(ExitCodes.UNSUPPORTED, "--memory-provider", provider, "history", "k").err();
        String purge = cli.fails(ExitCodes.UNSUPPORTED, "--memory-provider", provider, "purge", "k").err();
        String purgeAll = cli.fails(ExitCodes.UNSUPPORTED, "--memory-provider", provider, "purge", "--all", "--scope", "project", "--yes").err();
        assertThat(purge).isEqualTo(history).contains("'" + provider + "' provider does not support HISTORY");
        assertThat(purgeAll).isEqualTo(history);
    }

    @Test
    void help_shows_both_forms_and_the_exit_codes() {
        String help = cli.ok("purge", "--help").out();
        assertThat(help).contains("Usage: forge-memory purge [OPTIONS] KEY [--scope=S]\n")
                .contains("   or: forge-memory purge [OPTIONS] --all --scope=S --yes\n");
        assertThat(help.replaceAll("\\s+", " ")).contains("Exits 1 if nothing is stored under KEY, 2 for --all without "
                + "--scope or --yes, 5 if the provider keeps no history");
    }
}
