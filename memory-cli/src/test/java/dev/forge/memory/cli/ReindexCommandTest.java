package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code reindex}: rebuilds a provider's derived indexes; refused by a provider that has none. */
class ReindexCommandTest {

    private CliHarness cli;

    @BeforeEach
    void setUp(@TempDir Path root) {
        cli = new CliHarness(root);
    }

    @Test
    void a_provider_without_derived_indexes_is_refused_with_exit_5_and_nothing_changes() {
        cli.ok("set", "k", "v");
        CliHarness.Result result = cli.fails(ExitCodes.UNSUPPORTED, "reindex");
        assertThat(result.err()).contains("markdown").contains("REINDEX");
        assertThat(cli.ok("get", "k").out()).isEqualTo("v\n");
    }

    @Test
    void a_provider_with_a_model_reindexes_and_reports_the_model() {
        cli.projectConfig("memory:\n  provider: in-memory\n  config:\n    embedding:\n      model: hashing\n      dimension: 64\n");
        CliHarness.Result result = cli.ok("reindex", "--no-progress");
        assertThat(result.out()).startsWith("Reindexed 0 entries with model hashing").endsWith(" s.\n");
        assertThat(result.err()).isEmpty();
    }

    @Test
    void json_gives_provider_entries_fingerprint_and_seconds() {
        cli.projectConfig("memory:\n  provider: in-memory\n  config:\n    embedding:\n      model: hashing\n");
        JsonNode document = cli.ok("reindex", "--json").json();
        assertThat(document.path("provider").asText()).isEqualTo("in-memory");
        assertThat(document.path("entries").asLong()).isZero();
        assertThat(document.path("fingerprint").asText()).startsWith("hashing");
        assertThat(document.path("seconds").isNumber()).isTrue();
    }
}
