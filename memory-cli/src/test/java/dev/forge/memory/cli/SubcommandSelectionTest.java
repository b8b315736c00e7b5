package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * A call builds picocli's model of only the subcommand it runs (a good part of a short call's start), and of all of
 * them when it asks for help or names none it knows, so usage and suggestions stay complete. That every command runs
 * the same way is shown by the rest of the tests, which go through the same selection ({@link CliHarness}).
 */
class SubcommandSelectionTest {

    private static CommandLine commandLine(String... args) {
        return ForgeMemoryCommand.commandLine(Map.of(), new ByteArrayInputStream(new byte[0]), Path.of("home"), args);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', nullValues = "none", value = {
        "get k                                 | get",
        "--json get k                          | get",
        "--project get query                   | query",
        "--memory-provider sqlite set k v      | set",
        "--memory-config c.yaml --session s get k | get",
        "--memory-provider=sqlite search text  | search",
        "--verbose plugin create x             | plugin",
        "get --help                            | get",
        "--help get                            | none",
        "-h                                    | none",
        "--version                             | none",
        "-V get k                              | none",
        "nope                                  | none",
        "''                                    | none",
    })
    void the_subcommand_is_the_first_word_that_is_no_option_or_option_value(String line, String expected) {
        String[] args = line.equals("''") ? new String[0] : line.trim().split("\\s+");
        assertThat(ForgeMemoryCommand.subcommandOf(args)).isEqualTo(expected);
    }

    @Test
    void a_call_naming_a_subcommand_builds_only_that_one() {
        assertThat(commandLine("--json", "get", "k").getSubcommands()).containsOnlyKeys("get");
    }

    @Test
    void help_or_an_unknown_subcommand_builds_them_all_in_the_order_help_lists_them() {
        assertThat(commandLine("--help").getSubcommands().keySet())
                .containsExactlyElementsOf(ForgeMemoryCommand.SUBCOMMANDS.keySet()).hasSize(24);
        assertThat(commandLine("nope").getSubcommands()).hasSize(24);
        assertThat(commandLine((String[]) null).getSubcommands()).hasSize(24);
    }

    @Test
    void an_unknown_subcommand_is_told_apart_from_the_known_ones(@TempDir Path root) {
        CliHarness.Result result = new CliHarness(root).run("gte", "k");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        // Suggestions are drawn from every subcommand, none of which was built for the call itself.
        assertThat(result.err()).contains("'gte'").contains("Did you mean 'relate'");
    }

    @Test
    void shared_options_given_after_the_only_subcommand_built_still_apply(@TempDir Path root) {
        CliHarness cli = new CliHarness(root);
        cli.ok("set", "k", "v");
        CliHarness.Result result = cli.runRaw("", "get", "k", "--json", "--project", cli.project.toString());
        assertThat(result.exitCode()).as(result.toString()).isZero();
        assertThat(result.json().path("value").asText()).isEqualTo("v");
    }
}
