package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.forge.memory.config.Memories;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code doctor}: problems of the stored data on stdout, exit 6 when there are some, 0 when there are none. */
class DoctorCommandTest {

    /** A memory file name the markdown provider reads, holding no front-matter it can parse. */
    private static final String BROKEN_FILE = "mem_0b9d6c1e-3f4a-4c2b-9d1e-5a6b7c8d9e0f.md";

    private CliHarness cli;

    @BeforeEach
    void setUp(@TempDir Path root) {
        cli = new CliHarness(root);
    }

    /** A store of the default (markdown) provider with one good memory and one file a person broke. */
    private Path brokenStore() {
        cli.ok("set", "good", "a readable memory");
        return cli.write(cli.project.resolve(".forge/memory").resolve(BROKEN_FILE), "---\nkey: [unclosed\n---\nbody\n");
    }

    @Test
    void a_clean_store_has_no_problems_and_exits_0() {
        cli.ok("set", "k", "v");
        assertThat(cli.ok("doctor").out()).isEqualTo("No problems found by the " + Memories.DEFAULT_PROVIDER + " provider.\n");
    }

    @Test
    void an_empty_project_has_no_problems() {
        assertThat(cli.ok("doctor").out()).isEqualTo("No problems found by the " + Memories.DEFAULT_PROVIDER + " provider.\n");
    }

    @Test
    void a_damaged_memory_file_is_listed_by_name_and_exits_6() {
        Path broken = brokenStore();
        CliHarness.Result result = cli.run("doctor");
        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.PROBLEMS_FOUND);
        assertThat(result.out().lines().toList()).as(result.toString())
                .singleElement().satisfies(line -> assertThat(line).startsWith(broken + ": "));
        // The other memories are still there: a damaged file is skipped, not fatal.
        assertThat(cli.ok("get", "good").out()).isEqualTo("a readable memory\n");
    }

    @Test
    void json_gives_the_provider_and_each_problem_with_location_and_text() {
        Path broken = brokenStore();
        CliHarness.Result result = cli.run("doctor", "--json");
        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.PROBLEMS_FOUND);
        JsonNode document = result.json();
        assertThat(document.path("provider").asText()).isEqualTo(Memories.DEFAULT_PROVIDER);
        assertThat(document.size()).isEqualTo(2);
        JsonNode problems = document.path("problems");
        assertThat(problems).hasSize(1);
        assertThat(problems.get(0).path("location").asText()).isEqualTo(broken.toString());
        assertThat(problems.get(0).path("problem").asText()).isNotBlank();
        assertThat(problems.get(0).size()).isEqualTo(2);
    }

    @Test
    void json_of_a_clean_store_has_an_empty_problem_list() {
        CliHarness.Result result = cli.ok("doctor", "--json");
        assertThat(result.json().path("provider").asText()).isEqualTo(Memories.DEFAULT_PROVIDER);
        assertThat(result.json().path("problems").isArray()).isTrue();
        assertThat(result.json().path("problems")).isEmpty();
    }

    @Test
    void a_provider_that_checks_nothing_reports_no_problems_under_its_own_name() {
        assertThat(cli.ok("--memory-provider", "in-memory", "doctor").out()).isEqualTo("No problems found by the in-memory provider.\n");
    }

    @Test
    void a_damaged_sqlite_database_is_not_sent_to_doctor_which_fails_on_it_the_same_way() throws Exception {
        for (int i = 0; i < 6; i++) {
            cli.ok("--memory-provider", "sqlite", "set", "k" + i, ("memory number " + i + " ").repeat(300));
        }
        Path database = cli.project.resolve(".forge/memory.db");
        byte[] intact = Files.readAllBytes(database);
        int pageSize = ((intact[16] & 0xff) << 8) | (intact[17] & 0xff);
        long entriesPage;
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
             ResultSet row = connection.createStatement().executeQuery("SELECT rootpage FROM sqlite_master WHERE name = 'entries'")) {
            assertThat(row.next()).isTrue();
            entriesPage = row.getLong(1);
        }
        Random random = new Random(22);

        // The table of entries damaged: the store opens, reading a key fails, and so does doctor.
        byte[] damaged = intact.clone();
        for (int at = (int) ((entriesPage - 1) * pageSize); at < entriesPage * pageSize; at++) {
            damaged[at] = (byte) random.nextInt(256);
        }
        Files.write(database, damaged);
        CliHarness.Result get = cli.fails(ExitCodes.BACKEND, "--memory-provider", "sqlite", "get", "k1");
        CliHarness.Result doctor = cli.fails(ExitCodes.BACKEND, "--memory-provider", "sqlite", "doctor");

        // Everything after the first page damaged: the store does not open at all.
        for (int at = pageSize; at < damaged.length; at++) {
            damaged[at] = (byte) random.nextInt(256);
        }
        Files.write(database, damaged);
        CliHarness.Result open = cli.fails(ExitCodes.BACKEND, "--memory-provider", "sqlite", "get", "k1");

        for (CliHarness.Result result : List.of(get, doctor, open)) {
            assertThat(result.err()).as(result.toString()).contains(database.toString()).contains("damaged")
                    .contains("backup").doesNotContain("doctor");
        }
    }

    @Test
    void help_documents_the_exit_codes() {
        assertThat(cli.ok("doctor", "--help").out()).contains("Exits 0 if no problems were found, 6 if some were.");
        assertThat(cli.ok("--help").out()).containsPattern("(?m)^\\s+6\\s+doctor found problems");
    }
}
