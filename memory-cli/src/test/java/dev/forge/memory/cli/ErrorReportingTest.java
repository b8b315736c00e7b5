package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every kind of failure: its exit code, one clear sentence on stderr, nothing on stdout, no stack trace. */
class ErrorReportingTest {

    @TempDir
    Path root;

    CliHarness cli;

    @BeforeEach
    void setUp() {
        cli = new CliHarness(root);
    }

    private CliHarness.Result fails(int exitCode, String... args) {
        CliHarness.Result result = cli.run(args);
        assertThat(result.exitCode()).as(result.toString()).isEqualTo(exitCode);
        assertThat(result.out()).as("stdout").isEmpty();
        assertThat(result.err()).as("stderr").startsWith("forge-memory: ").doesNotContain("\tat ");
        return result;
    }

    private void succeeds(String... args) {
        CliHarness.Result result = cli.run(args);
        assertThat(result.exitCode()).as(result.toString()).isZero();
    }

    @Test
    void malformed_yaml_exits_3_naming_file_line_and_column() {
        cli.projectConfig("memory:\n  provider: file\n  config: [unclosed\n");
        CliHarness.Result result = fails(ExitCodes.CONFIGURATION, "get", "k");
        assertThat(result.err()).containsPattern("\\.forge/config\\.yaml:\\d+:\\d+: malformed YAML");
    }

    @Test
    void an_unknown_config_key_exits_3_with_a_did_you_mean() {
        cli.projectConfig("memory:\n  provider: file\n  config:\n    base_pth: store\n");
        CliHarness.Result result = fails(ExitCodes.CONFIGURATION, "set", "k", "v");
        assertThat(result.err()).contains("memory.config.base_pth").contains("Did you mean 'base_path'?")
                .contains("Known keys:");
    }

    @Test
    void an_unknown_key_in_the_memory_block_exits_3_with_a_did_you_mean() {
        cli.projectConfig("memory:\n  provder: file\n");
        assertThat(fails(ExitCodes.CONFIGURATION, "config").err()).contains("Did you mean 'provider'?");
    }

    @Test
    void an_unknown_provider_exits_3_listing_the_providers_found() {
        CliHarness.Result result = fails(ExitCodes.CONFIGURATION, "--memory-provider", "sqlitee", "get", "k");
        assertThat(result.err()).contains("No memory provider named 'sqlitee'").contains("file, in-memory");
    }

    @Test
    void an_unset_variable_exits_3_naming_the_variable_and_the_field() {
        cli.projectConfig("memory:\n  provider: file\n  config:\n    base_path: ${MEMORY_DIR}\n");
        CliHarness.Result result = fails(ExitCodes.CONFIGURATION, "get", "k");
        assertThat(result.err()).contains("${MEMORY_DIR}").contains("memory.config.base_path").contains("not set");
    }

    @Test
    void a_missing_memory_config_file_exits_3() {
        CliHarness.Result result = fails(ExitCodes.CONFIGURATION, "--memory-config", root.resolve("nope.yaml").toString(), "get", "k");
        assertThat(result.err()).contains("nope.yaml").contains("does not exist");
    }

    @Test
    void an_invalid_key_exits_2() {
        CliHarness.Result result = fails(ExitCodes.USAGE, "set", "bad\u0007key", "v");
        assertThat(result.err()).containsIgnoringCase("key");
        fails(ExitCodes.USAGE, "get", "");
    }

    @Test
    void an_oversized_value_exits_2_and_stores_nothing() throws IOException {
        Path big = root.resolve("big.txt");
        Files.writeString(big, "x".repeat(1024 * 1024 + 1));
        CliHarness.Result result = fails(ExitCodes.USAGE, "set", "big", "--value-file", big.toString());
        assertThat(result.err()).contains("key 'big'").contains("at most 1048576 bytes");
        fails(ExitCodes.NOT_FOUND, "get", "big");
    }

    @Test
    void semantic_search_on_the_file_provider_exits_5() {
        succeeds("set", "k", "some text");
        CliHarness.Result result = fails(ExitCodes.UNSUPPORTED, "search", "text", "--mode", "semantic");
        assertThat(result.err()).contains("'file' provider does not support SEMANTIC_SEARCH");
    }

    @Test
    void get_of_missing_key_exits_1_and_says_so() {
        assertThat(fails(ExitCodes.NOT_FOUND, "get", "nope").err()).isEqualTo("forge-memory: No entry 'nope' in scope project.\n");
    }

    @Test
    void delete_history_and_traverse_of_a_missing_key_exit_1() {
        fails(ExitCodes.NOT_FOUND, "delete", "nope");
        fails(ExitCodes.NOT_FOUND, "history", "nope");
        fails(ExitCodes.NOT_FOUND, "traverse", "nope");
    }

    @Test
    void relate_with_a_missing_end_exits_1() {
        succeeds("set", "a", "A");
        assertThat(fails(ExitCodes.NOT_FOUND, "relate", "a", "nope", "USES").err()).contains("nope");
    }

    @Test
    void clear_without_yes_exits_2_and_removes_nothing() {
        succeeds("set", "k", "v");
        assertThat(fails(ExitCodes.USAGE, "clear", "--scope", "project").err()).contains("--yes");
        succeeds("get", "k");
    }

    @Test
    void a_bad_scope_value_exits_2_naming_the_valid_scopes() {
        CliHarness.Result result = fails(ExitCodes.USAGE, "get", "k", "--scope", "bogus");
        assertThat(result.err()).contains("Unknown scope 'bogus'").contains("session, project, global");
    }

    @Test
    void scopes_are_parsed_ignoring_case() {
        succeeds("set", "k", "v", "--scope", "GLOBAL");
        succeeds("get", "k", "--scope", "Global");
    }

    @Test
    void unknown_options_and_missing_parameters_exit_2() {
        assertThat(fails(ExitCodes.USAGE, "get", "k", "--colour").err()).contains("--colour");
        fails(ExitCodes.USAGE, "get");
        fails(ExitCodes.USAGE, "set", "k");
        fails(ExitCodes.USAGE, "clear", "--yes");
        fails(ExitCodes.USAGE, "query", "--order", "sideways");
        assertThat(fails(ExitCodes.USAGE, "serch", "x").err()).contains("search");
    }

    @Test
    void a_value_that_looks_like_an_option_is_refused_with_a_hint_instead_of_showing_help() {
        CliHarness.Result result = fails(ExitCodes.USAGE, "set", "k", "-hello");
        assertThat(result.err()).contains("Unknown option: '-hello'").contains("set -- KEY -VALUE");
        succeeds("set", "--", "k", "-hello");
        assertThat(cli.run("get", "k").out()).isEqualTo("-hello\n");
    }

    @Test
    void bad_metadata_exits_2() {
        assertThat(fails(ExitCodes.USAGE, "set", "k", "v", "--meta-json", "n={oops").err()).contains("not JSON");
        assertThat(fails(ExitCodes.USAGE, "set", "k", "v", "--meta", "novalue").err()).contains("K=V");
        assertThat(fails(ExitCodes.USAGE, "set", "k", "v", "--meta", "a=1", "--meta-json", "a=1").err()).contains("twice");
    }

    @Test
    void an_invalid_request_exits_2() {
        fails(ExitCodes.USAGE, "query", "*", "--limit", "0");
        fails(ExitCodes.USAGE, "search", "x", "--threshold", "2");
        fails(ExitCodes.USAGE, "traverse", "a", "--depth", "99");
    }

    @Test
    void a_damaged_entry_file_exits_4_naming_the_file() throws IOException {
        succeeds("set", "k", "v");
        Path entry;
        try (Stream<Path> files = Files.walk(cli.project.resolve(".forge/memory"))) {
            entry = files.filter(f -> f.getFileName().toString().equals("k.json")).findFirst().orElseThrow();
        }
        Files.writeString(entry, "{ not json");
        assertThat(fails(ExitCodes.BACKEND, "get", "k").err()).contains("k.json");
    }

    @Test
    void an_unusable_store_directory_exits_4() throws IOException {
        Files.writeString(cli.project.resolve("not-a-directory"), "");
        cli.projectConfig("memory:\n  provider: file\n  config:\n    base_path: not-a-directory/store\n");
        fails(ExitCodes.BACKEND, "set", "k", "v");
    }

    @Test
    void a_project_directory_that_does_not_exist_exits_2_and_creates_nothing() {
        Path missing = root.resolve("typo");
        CliHarness.Result result = cli.runRaw("", "--project", missing.toString(), "set", "k", "v");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).contains("typo").contains("does not exist");
        assertThat(missing).doesNotExist();
    }

    @Test
    void verbose_adds_the_stack_trace() {
        CliHarness.Result result = cli.run("--verbose", "get", "nope");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(result.err()).contains("EntryNotFoundException").contains("\tat ");
    }
}
