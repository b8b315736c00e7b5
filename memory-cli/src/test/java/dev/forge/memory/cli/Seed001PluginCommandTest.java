package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 001's plugin memory operations (resources {@code seeds/001/}) through {@code forge-memory plugin}, on the
 * markdown provider's layered layout: the files the seed describes, stamped, and fresh for {@code staleness}.
 */
class Seed001PluginCommandTest {

    private static final String TODAY = LocalDate.now(ZoneOffset.UTC).toString();

    private CliHarness cli;
    private Path memory;

    @BeforeEach
    void setUp(@TempDir Path root) {
        cli = new CliHarness(root);
        cli.projectConfig("memory:\n  provider: markdown\n  config:\n    path: memory\n    layout: layered\n");
        memory = cli.project.resolve("memory");
    }

    private static String seed(String name) {
        try (InputStream in = Seed001PluginCommandTest.class.getResourceAsStream("/seeds/001/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The fields of the seed's {@code create({...})} call, string escapes ({@code \n}) resolved. */
    private static Map<String, String> createCall() {
        Map<String, String> fields = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(?m)^\\s+(\\w+): \"(.*)\",?$").matcher(seed("create.txt"));
        while (m.find()) {
            fields.put(m.group(1), m.group(2).replace("\\n", "\n"));
        }
        return fields;
    }

    private String file(String key) {
        try {
            return Files.readString(memory.resolve(key + ".md"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private JsonNode stalenessOf(String key) {
        for (JsonNode row : cli.ok("staleness", "--json").json().path("memories")) {
            if (row.path("key").asText().equals(key)) {
                return row;
            }
        }
        throw new AssertionError("staleness does not list " + key);
    }

    @Test
    void the_seeds_create_example_writes_the_seeds_file_stamped_today_and_staleness_says_fresh() {
        Map<String, String> call = createCall();
        String id = call.get("layer") + "/" + call.get("skillName") + "/" + call.get("projectName") + "/" + call.get("fileType");
        assertThat(id).isEqualTo("skill-specific/python-code-review/my-api/project_overview");

        String out = cli.ok("plugin", "create", id, call.get("content")).out();

        String key = "skills/python-code-review/my-api/project_overview";
        assertThat(out).contains("Created " + key).contains("Last Updated " + TODAY);
        String expected = seed("project_overview.md").stripTrailing().replace("2026-02-10", TODAY);
        assertThat(file(key)).isEqualTo(expected);
        JsonNode row = stalenessOf(key);
        assertThat(row.path("staleness").asText()).isEqualTo("fresh");
        assertThat(row.path("last_updated").asText()).isEqualTo(TODAY);
        assertThat(row.path("document").asBoolean()).isTrue();

        assertThat(cli.fails(ExitCodes.BACKEND, "plugin", "create", id, "again").err()).contains("update or append");
        assertThat(file(key)).isEqualTo(expected);
    }

    @Test
    void update_restamps_and_the_layered_key_names_the_same_document() {
        String key = "projects/my-api/project_profile";
        cli.ok("plugin", "create", "shared-project/my-api/project_profile", "<!-- Last Updated: 2020-01-01 -->\n\n# Profile");
        assertThat(file(key)).isEqualTo("<!-- Last Updated: " + TODAY + " -->\n\n# Profile");

        JsonNode updated = cli.ok("--json", "plugin", "update", key, "# Profile v2").json();

        assertThat(updated.path("version").asInt()).isEqualTo(2);
        assertThat(updated.path("last_updated").asText()).isEqualTo(TODAY);
        assertThat(file(key)).isEqualTo("<!-- Last Updated: " + TODAY + " -->\n\n# Profile v2");
        assertThat(stalenessOf(key).path("staleness").asText()).isEqualTo("fresh");
    }

    @Test
    void the_seeds_review_history_example_append_archives_reviews_1_to_3_and_keeps_4_to_14() {
        assertThat(seed("review_history_pruning.txt")).contains("13 ## Review entries", "Reviews #1, #2, #3 appended");
        String id = "skill-specific/python-code-review/my-api/review_history";
        assertThat(cli.fails(ExitCodes.NOT_FOUND, "plugin", "append", id, "## Review #14").err()).contains("create it first");

        String thirteen = IntStream.rangeClosed(1, 13).mapToObj(i -> "## Review #" + i + "\nFindings of review " + i + ".")
                .collect(Collectors.joining("\n\n"));
        cli.ok("plugin", "create", id, thirteen);
        String out = cli.ok("plugin", "append", id, "## Review #14\nFindings of review 14.").out();

        String key = "skills/python-code-review/my-api/review_history";
        assertThat(out).contains("Appended to " + key);
        String main = file(key);
        String archive = file(key + "_archive");
        assertThat(main).startsWith("<!-- Last Updated: " + TODAY + " -->\n\n");
        assertThat(archive).startsWith("<!-- Last Updated: " + TODAY + " -->\n\n");
        for (int i = 1; i <= 14; i++) {
            assertThat(i <= 3 ? archive : main).contains("## Review #" + i + "\n");
            assertThat(i <= 3 ? main : archive).doesNotContain("## Review #" + i + "\n");
        }
        assertThat(main.indexOf("## Review #13")).isLessThan(main.indexOf("## Review #14"));
        assertThat(stalenessOf(key).path("staleness").asText()).isEqualTo("fresh");
        assertThat(stalenessOf(key + "_archive").path("staleness").asText()).isEqualTo("fresh");
    }

    @Test
    void an_id_of_an_unknown_layer_or_shape_is_refused_in_one_sentence() {
        assertThat(cli.fails(ExitCodes.USAGE, "plugin", "create", "skill-specific/python-code-review/project_overview", "x")
                .err()).contains("skills/{skill}/{project}/{fileType}");
        assertThat(cli.fails(ExitCodes.USAGE, "plugin", "create", "notes/my-api/x", "x").err())
                .contains("projects/, skills/, commands/ or agents/");
    }
}
