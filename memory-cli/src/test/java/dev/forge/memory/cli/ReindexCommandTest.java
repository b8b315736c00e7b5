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

    @Test
    void after_a_model_change_the_vector_provider_refuses_until_reindex_rebuilds_it_with_a_progress_bar() {
        cli.projectConfig(vectorWithHashing(64));
        cli.ok("set", "db", "We chose PostgreSQL for billing.");
        cli.ok("set", "lang", "The billing API is written in Kotlin.");
        cli.ok("set", "deploy", "Releases ship on Tuesdays.");

        cli.projectConfig(vectorWithHashing(128));
        CliHarness.Result refused = cli.fails(ExitCodes.CONFIGURATION, "search", "billing", "--mode", "semantic");
        assertThat(refused.err()).contains("hashing").contains("dim=64").contains("dim=128").contains("forge-memory reindex");

        CliHarness.Result reindexed = cli.ok("reindex");
        assertThat(reindexed.out()).startsWith("Reindexed 3 entries with model hashing");
        assertThat(reindexed.err()).contains("3/3");
        JsonNode hits = cli.ok("search", "PostgreSQL billing", "--mode", "semantic", "--json").json().path("hits");
        assertThat(hits.get(0).path("entry").path("key").asText()).isEqualTo("db");
        assertThat(cli.ok("get", "lang").out()).isEqualTo("The billing API is written in Kotlin.\n");
    }

    private static String vectorWithHashing(int dimension) {
        return "memory:\n  provider: vector\n  config:\n    embedding:\n      model: hashing\n      dimension: " + dimension + "\n";
    }
}
