package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.forge.memory.config.Memories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every kind of failure: its exit code, one clear sentence on stderr, nothing on stdout, no stack trace. */
class ErrorReportingTest {

    /** One call of every command, each valid on an empty project. */
    private static final String[][] EVERY_COMMAND = {
        {"providers"}, {"init"}, {"config"}, {"set", "k", "v"}, {"get", "k"}, {"query"}, {"search", "x"},
        {"delete", "k"}, {"purge", "k"}, {"purge", "--all", "--scope", "project", "--yes"}, {"clear", "--scope", "project", "--yes"},
        {"relate", "a", "b", "T"}, {"traverse", "a"}, {"history", "k"}, {"doctor"},
    };

    private static String[] concat(String[] first, String[] second) {
        return Stream.concat(Arrays.stream(first), Arrays.stream(second)).toArray(String[]::new);
    }

    private CliHarness cli;

    @BeforeEach
    void setUp(@TempDir Path root) {
        cli = new CliHarness(root);
    }

    /** {@link CliHarness#fails}, and stricter: the one line on stderr must end in a line break. */
    private CliHarness.Result fails(int exitCode, String... args) {
        CliHarness.Result result = cli.fails(exitCode, args);
        assertOneErrorLine(result);
        return result;
    }

    /** stderr is exactly one line, "forge-memory: ...", and so no stack trace (which only --verbose adds). */
    private static void assertOneErrorLine(CliHarness.Result result) {
        assertThat(result.err()).as("stderr").startsWith("forge-memory: ").endsWith("\n").doesNotContain("\tat ");
        assertThat(result.err().lines().count()).as("lines on stderr: " + result.err()).isEqualTo(1);
    }

    @Test
    void malformed_yaml_exits_3_naming_file_line_and_column_on_one_line() {
        // The flow sequence opened at line 3, column 11 never closes: reported where it starts (the parser notices
        // at the end of the file, which the message adds in words).
        Path file = cli.projectConfig("memory:\n  provider: file\n  config: [unclosed\n");
        CliHarness.Result result = fails(ExitCodes.CONFIGURATION, "get", "k");
        assertThat(result.err()).startsWith("forge-memory: " + file + ":3:11: malformed YAML: ");
    }

    @Test
    void a_tab_indented_line_exits_3_naming_that_line() {
        Path file = cli.projectConfig("memory:\n  provider: file\n  config:\n\tbase_path: store\n");
        CliHarness.Result result = fails(ExitCodes.CONFIGURATION, "config");
        assertThat(result.err()).startsWith("forge-memory: " + file + ":4:1: malformed YAML: ");
    }

    @Test
    void malformed_yaml_is_reported_without_quoting_the_file() {
        cli.projectConfig("memory:\n  provider: file\n  config:\n    password: hunter2-secret\n    url: [unclosed\n");
        CliHarness.Result result = fails(ExitCodes.CONFIGURATION, "config");
        assertThat(result.err()).contains(":5:").contains("malformed YAML").doesNotContain("hunter2-secret")
                .doesNotContain("unclosed");
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
        assertThat(result.err()).contains("No memory provider named 'sqlitee'").contains("file, hybrid, in-memory, markdown");
    }

    @Test
    void an_unset_variable_exits_3_naming_the_variable_and_the_field() {
        cli.projectConfig("memory:\n  provider: file\n  config:\n    base_path: ${MEMORY_DIR}\n");
        CliHarness.Result result = fails(ExitCodes.CONFIGURATION, "get", "k");
        assertThat(result.err()).contains("${MEMORY_DIR}").contains("memory.config.base_path").contains("not set");
    }

    @Test
    void a_missing_memory_config_file_exits_3() {
        CliHarness.Result result = fails(ExitCodes.CONFIGURATION, "--memory-config", cli.root.resolve("nope.yaml").toString(), "get", "k");
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
        Path big = cli.root.resolve("big.txt");
        Files.writeString(big, "x".repeat(1024 * 1024 + 1));
        CliHarness.Result result = fails(ExitCodes.USAGE, "set", "big", "--value-file", big.toString());
        assertThat(result.err()).contains("key 'big'").contains("at most 1048576 bytes");
        fails(ExitCodes.NOT_FOUND, "get", "big");
    }

    @Test
    void semantic_search_on_a_provider_without_it_exits_5() {
        // Neither bundled file-based provider (the default markdown, and file) has semantic search.
        for (String provider : new String[] {Memories.DEFAULT_PROVIDER, "file"}) {
            cli.ok("--memory-provider", provider, "set", "k", "some text");
            CliHarness.Result result = fails(ExitCodes.UNSUPPORTED, "--memory-provider", provider, "search", "text", "--mode", "semantic");
            assertThat(result.err()).contains("'" + provider + "' provider does not support SEMANTIC_SEARCH");
        }
    }

    @Test
    void get_of_missing_key_exits_1_and_says_so() {
        assertThat(fails(ExitCodes.NOT_FOUND, "get", "nope").err()).isEqualTo("forge-memory: No entry 'nope' in scope project.\n");
    }

    @Test
    void delete_purge_history_and_traverse_of_a_missing_key_exit_1() {
        fails(ExitCodes.NOT_FOUND, "delete", "nope");
        fails(ExitCodes.NOT_FOUND, "purge", "nope");
        fails(ExitCodes.NOT_FOUND, "history", "nope");
        fails(ExitCodes.NOT_FOUND, "traverse", "nope");
    }

    @Test
    void relate_with_a_missing_end_exits_1() {
        cli.ok("set", "a", "A");
        assertThat(fails(ExitCodes.NOT_FOUND, "relate", "a", "nope", "USES").err()).contains("nope");
    }

    @Test
    void clear_without_yes_exits_2_and_removes_nothing() {
        cli.ok("set", "k", "v");
        assertThat(fails(ExitCodes.USAGE, "clear", "--scope", "project").err()).contains("--yes");
        cli.ok("get", "k");
    }

    @Test
    void a_bad_scope_value_exits_2_naming_the_valid_scopes() {
        CliHarness.Result result = fails(ExitCodes.USAGE, "get", "k", "--scope", "bogus");
        assertThat(result.err()).contains("Unknown scope 'bogus'").contains("session, project, global");
    }

    @Test
    void scopes_are_parsed_ignoring_case() {
        cli.ok("set", "k", "v", "--scope", "GLOBAL");
        cli.ok("get", "k", "--scope", "Global");
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
        cli.ok("set", "--", "k", "-hello");
        assertThat(cli.run("get", "k").out()).isEqualTo("-hello\n");
    }

    @Test
    void bad_metadata_exits_2() {
        assertThat(fails(ExitCodes.USAGE, "set", "k", "v", "--meta-json", "n={oops").err()).contains("not JSON");
        assertThat(fails(ExitCodes.USAGE, "set", "k", "v", "--meta", "novalue").err()).contains("K=V");
        assertThat(fails(ExitCodes.USAGE, "set", "k", "v", "--meta", "a=1", "--meta-json", "a=1").err()).contains("twice");
    }

    @Test
    void meta_json_numbers_a_double_cannot_hold_and_null_exit_2_as_import_refuses_them_never_rounded() {
        for (String number : new String[] {"19.999999999999999999", "1e-400", "1e400", "0.1000000000000000000001",
            "99999999999999999999", "null"}) {
            CliHarness.Result result = fails(ExitCodes.USAGE, "set", "k", "v", "--meta-json", "n=" + number);
            assertThat(result.err()).as(number).contains("--meta-json n").contains("--meta n=");
            fails(ExitCodes.NOT_FOUND, "get", "k");
        }
        JsonNode exact = cli.ok("set", "k", "v", "--meta-json", "d=0.1", "--meta-json", "big=1.5e300",
                "--meta-json", "long=9223372036854775807", "--meta-json", "list=[2.5, {\"x\": 0.25}]", "--json").json();
        assertThat(exact.path("metadata").toString())
                .isEqualTo("{\"big\":1.5E300,\"d\":0.1,\"list\":[2.5,{\"x\":0.25}],\"long\":9223372036854775807}");
    }

    @Test
    void an_invalid_request_exits_2() {
        fails(ExitCodes.USAGE, "query", "*", "--limit", "0");
        fails(ExitCodes.USAGE, "search", "x", "--threshold", "2");
        fails(ExitCodes.USAGE, "traverse", "a", "--depth", "99");
    }

    @Test
    void a_damaged_entry_file_of_the_file_provider_exits_4_naming_the_file() throws IOException {
        // The file provider fails on a damaged entry; the markdown provider skips it (see DoctorCommandTest).
        cli.projectConfig("memory:\n  provider: file\n");
        cli.ok("set", "k", "v");
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
        Path missing = cli.root.resolve("typo");
        CliHarness.Result result = cli.runRaw("", "--project", missing.toString(), "set", "k", "v");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).contains("typo").contains("does not exist");
        assertThat(missing).doesNotExist();
    }

    @Test
    void an_empty_memory_provider_exits_2_for_every_command() {
        for (String[] command : EVERY_COMMAND) {
            CliHarness.Result result = fails(ExitCodes.USAGE, concat(new String[] {"--memory-provider", ""}, command));
            assertThat(result.err()).as(String.join(" ", command)).contains("--memory-provider is empty");
        }
        assertThat(fails(ExitCodes.USAGE, "--memory-provider", "  ", "get", "k").err()).contains("--memory-provider is empty");
        assertThat(fails(ExitCodes.USAGE, "config", "--memory-provider", "").err()).contains("--memory-provider is empty")
                .contains("'forge-memory config --help'");
    }

    @Test
    void an_empty_or_invalid_session_exits_2_for_every_command_including_config() {
        for (String[] command : EVERY_COMMAND) {
            CliHarness.Result result = fails(ExitCodes.USAGE, concat(new String[] {"--session", ""}, command));
            assertThat(result.err()).as(String.join(" ", command)).contains("--session is empty");
        }
        assertThat(fails(ExitCodes.USAGE, "--session", " ", "config").err()).contains("--session is empty");
        assertThat(fails(ExitCodes.USAGE, "--session", "a\u0007b", "config").err()).contains("--session").contains("U+0007");
        assertThat(fails(ExitCodes.USAGE, "--session", "s".repeat(129), "config").err()).contains("the limit is 128");
        cli.env.put("FORGE_SESSION_ID", "a\tb");
        assertThat(fails(ExitCodes.USAGE, "config").err()).contains("$FORGE_SESSION_ID").contains("U+0009");
        cli.env.put("FORGE_SESSION_ID", " ");
        cli.ok("config");
    }

    @Test
    void empty_project_memory_config_and_init_provider_exit_2() {
        CliHarness.Result project = cli.runRaw("", "--project", "", "config");
        assertThat(project.exitCode()).as(project.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(project.out()).isEmpty();
        assertOneErrorLine(project);
        assertThat(project.err()).contains("--project is empty");
        assertThat(fails(ExitCodes.USAGE, "--memory-config", "", "config").err()).contains("--memory-config is empty");
        assertThat(fails(ExitCodes.USAGE, "init", "--provider", "").err()).contains("--provider is empty");
        assertThat(cli.project.resolve(".forge/config.yaml")).doesNotExist();
    }

    @Test
    void help_still_works_with_an_empty_option() {
        CliHarness.Result help = cli.run("--session", "", "get", "--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).contains("Usage: forge-memory get");
    }

    @Test
    void config_of_an_unknown_provider_prints_the_configuration_then_exits_3_listing_the_providers_found() {
        CliHarness.Result text = cli.run("--memory-provider", "sqlitee", "config");
        assertThat(text.exitCode()).as(text.toString()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(text.out()).contains("provider: sqlitee    (from --memory-provider)").contains("session:  cli")
                .contains("providers found: file, hybrid, in-memory, markdown, postgres, relational, sqlite");
        assertOneErrorLine(text);
        assertThat(text.err()).contains("No memory provider named 'sqlitee'").contains("Found: file, hybrid, in-memory, markdown");

        cli.projectConfig("memory:\n  provider: sqlitee\n");
        CliHarness.Result json = cli.run("config", "--json");
        assertThat(json.exitCode()).as(json.toString()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(json.json().path("provider").asText()).isEqualTo("sqlitee");
        assertThat(json.json().path("providerAvailable").asBoolean(true)).isFalse();
        assertThat(json.json().path("providersFound").toString()).isEqualTo("[\"file\",\"hybrid\",\"in-memory\",\"markdown\",\"postgres\",\"relational\",\"sqlite\",\"vector\"]");
        assertOneErrorLine(json);

        JsonNode available = cli.run("config", "--json", "--memory-provider", "file").json();
        assertThat(available.path("providerAvailable").asBoolean(false)).isTrue();
    }

    @Test
    void a_config_file_that_cannot_be_written_exits_4() throws IOException {
        Files.writeString(cli.project.resolve(".forge"), "a file where the .forge directory should be");
        CliHarness.Result result = fails(ExitCodes.BACKEND, "init");
        assertThat(result.err()).contains(".forge").contains("cannot be written");
    }

    @Test
    void batch_results_that_cannot_be_written_exit_4() throws IOException {
        cli.ok("set", "k", "some text");
        Path queries = Files.writeString(cli.root.resolve("queries.jsonl"), "{\"id\": \"q\", \"text\": \"text\"}\n");
        Files.writeString(cli.root.resolve("blocked"), "a file where the output directory should be");
        CliHarness.Result result = fails(ExitCodes.BACKEND, "search", "--batch", queries.toString(),
                "--out", cli.root.resolve("blocked/results.jsonl").toString());
        assertThat(result.err()).contains("results cannot be written").contains("blocked");
    }

    @Test
    void errors_stay_one_plain_line_on_stderr_with_json() {
        CliHarness.Result missing = fails(ExitCodes.NOT_FOUND, "get", "nope", "--json");
        assertThat(missing.err()).isEqualTo("forge-memory: No entry 'nope' in scope project.\n");
        fails(ExitCodes.USAGE, "get", "k", "--colour", "--json");
        fails(ExitCodes.CONFIGURATION, "--memory-provider", "nope", "query", "--json");
    }

    @Test
    void verbose_adds_the_stack_trace() {
        CliHarness.Result result = cli.run("--verbose", "get", "nope");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(result.err()).contains("EntryNotFoundException").contains("\tat ");
    }
}
