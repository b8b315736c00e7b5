package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** staleness, prune, consolidate and context as a person runs them, on the default (markdown) provider. */
class LifecycleCommandsTest {

    private static final String REVIEWS = "skills/python-code-review/my-api/review_history";

    private CliHarness cli;

    @BeforeEach
    void setUp(@TempDir Path root) {
        cli = new CliHarness(root);
    }

    private static String stamp(int daysAgo) {
        return "<!-- Last Updated: " + LocalDate.now(ZoneOffset.UTC).minusDays(daysAgo) + " -->\n\n";
    }

    @Test
    void staleness_dates_documents_by_their_stamp_and_other_memories_by_their_update() {
        cli.ok("set", REVIEWS, stamp(200) + "# Review History\n");
        cli.ok("set", "projects/my-api/project_profile", "# Profile without a stamp\n");
        cli.ok("set", "commands/my-api/command_history", stamp(45) + "# Commands\n");
        cli.ok("set", "decision:db", "SQLite it is.");

        JsonNode report = cli.ok("staleness", "--json").json();

        Map<String, JsonNode> byKey = new HashMap<>();
        report.path("memories").forEach(m -> byKey.put(m.path("key").asText(), m));
        assertThat(byKey).containsOnlyKeys(REVIEWS, "projects/my-api/project_profile", "commands/my-api/command_history",
                "decision:db");
        assertThat(byKey.get(REVIEWS).path("staleness").asText()).isEqualTo("stale");
        assertThat(byKey.get(REVIEWS).path("days").asLong()).isEqualTo(200);
        assertThat(byKey.get(REVIEWS).path("document").asBoolean()).isTrue();
        assertThat(byKey.get("projects/my-api/project_profile").path("staleness").asText()).isEqualTo("stale");
        assertThat(byKey.get("projects/my-api/project_profile").path("last_updated").isNull()).isTrue();
        assertThat(byKey.get("commands/my-api/command_history").path("staleness").asText()).isEqualTo("aging");
        assertThat(byKey.get("decision:db").path("staleness").asText()).isEqualTo("fresh");
        assertThat(byKey.get("decision:db").path("document").asBoolean()).isFalse();
        assertThat(report.path("counts").path("fresh").asInt()).isEqualTo(1);
        assertThat(report.path("counts").path("aging").asInt()).isEqualTo(1);
        assertThat(report.path("counts").path("stale").asInt()).isEqualTo(2);

        List<String> lines = cli.ok("staleness").out().lines().toList();
        assertThat(lines.get(0)).startsWith("stale").contains("undated").endsWith("projects/my-api/project_profile");
        assertThat(lines.get(1)).startsWith("stale").contains("200 days").endsWith(REVIEWS);
        assertThat(lines.get(2)).startsWith("aging");
        assertThat(lines.get(3)).startsWith("fresh").endsWith("decision:db");
        assertThat(lines.get(4)).isEqualTo("1 fresh, 1 aging, 2 stale.");

        assertThat(cli.ok("staleness", "--only", "fresh").out().lines().toList())
                .containsExactly(lines.get(3), "1 fresh, 0 aging, 0 stale.");
        assertThat(cli.fails(ExitCodes.USAGE, "staleness", "--only", "old").err()).contains("fresh, aging or stale");
    }

    @Test
    void prune_dry_run_changes_nothing_and_prune_archives_the_oldest_reviews() {
        String reviews = IntStream.rangeClosed(1, 12).mapToObj(i -> "## Review " + i + "\nFindings of review " + i + ".\n")
                .collect(Collectors.joining("\n"));
        cli.ok("set", REVIEWS, stamp(0) + "# Review History\n\n" + reviews);
        String before = cli.ok("get", REVIEWS, "--json").json().path("value").asText();

        JsonNode dry = cli.ok("prune", "--dry-run", "--json").json();

        assertThat(dry.path("dry_run").asBoolean()).isTrue();
        assertThat(dry.path("actions")).isNotEmpty();
        dry.path("actions").forEach(a -> assertThat(a.path("action").asText()).isEqualTo("archived"));
        assertThat(cli.ok("get", REVIEWS, "--json").json().path("value").asText()).isEqualTo(before);
        cli.fails(ExitCodes.NOT_FOUND, "get", REVIEWS + "_archive");

        CliHarness.Result pruned = cli.ok("prune");

        assertThat(pruned.out()).contains("ARCHIVED " + REVIEWS);
        String main = cli.ok("get", REVIEWS, "--json").json().path("value").asText();
        String archive = cli.ok("get", REVIEWS + "_archive", "--json").json().path("value").asText();
        assertThat(main).doesNotContain("## Review 1\n").doesNotContain("## Review 2\n").contains("## Review 3\n")
                .contains("## Review 12\n");
        assertThat(archive).contains("## Review 1\nFindings of review 1.").contains("## Review 2\nFindings of review 2.")
                .doesNotContain("## Review 3\n");
        for (int i = 1; i <= 12; i++) {
            String section = "## Review " + i + "\nFindings of review " + i + ".";
            int copies = count(main, section) + count(archive, section);
            assertThat(copies).as("review %d", i).isEqualTo(1);
        }
        assertThat(cli.ok("prune").out()).contains("Nothing to prune");
    }

    @Test
    void consolidate_merges_duplicates_above_the_threshold_and_keeps_the_removed_ones_in_supersedes() {
        cli.ok("set", "note:a", "Use SQLite with WAL mode for the local store.");
        cli.ok("set", "note:b", "Use SQLite with WAL mode for the local store.");
        cli.ok("set", "note:c", "Answers are short.");

        JsonNode below = cli.ok("consolidate", "--json").json();
        assertThat(below.path("outcome").asText()).isEqualTo("below_threshold");

        JsonNode planned = cli.ok("consolidate", "--threshold", "0", "--dry-run", "--json").json();
        assertThat(planned.path("outcome").asText()).isEqualTo("planned");
        assertThat(planned.path("merged")).hasSize(1);
        assertThat(planned.path("merged").get(0).path("kept").asText()).isEqualTo("note:b");
        assertThat(cli.ok("query", "note:*", "--json").json().path("entries")).hasSize(3);

        CliHarness.Result merged = cli.ok("consolidate", "--threshold", "0");

        assertThat(merged.out()).contains("MERGED project note:b <- note:a");
        cli.fails(ExitCodes.NOT_FOUND, "get", "note:a");
        JsonNode kept = cli.ok("get", "note:b", "--json").json();
        JsonNode supersedes = kept.path("metadata").path("supersedes");
        assertThat(supersedes).hasSize(1);
        assertThat(supersedes.get(0).path("key").asText()).isEqualTo("note:a");
        assertThat(supersedes.get(0).path("value").asText()).isEqualTo("Use SQLite with WAL mode for the local store.");
        assertThat(cli.ok("get", "note:c", "--json").json().path("value").asText()).isEqualTo("Answers are short.");
    }

    @Test
    void consolidate_with_a_model_that_answers_nonsense_changes_nothing_and_exits_4() throws IOException {
        cli.ok("set", "note:a", "Use SQLite with WAL mode.");
        cli.ok("set", "note:b", "Use SQLite with WAL mode.");
        JsonNode before = cli.ok("query", "note:*", "--json").json();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        List<String> requests = new ArrayList<>();
        server.createContext("/v1/chat/completions", exchange -> {
            requests.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] answer = ("{\"id\":\"x\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":"
                    + "{\"role\":\"assistant\",\"content\":\"Sure! I merged them for you.\"},\"finish_reason\":\"stop\"}]}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
            CliHarness.Result result = cli.fails(ExitCodes.BACKEND, "consolidate", "--threshold", "0", "--llm-model",
                    "test-model", "--llm-url", url, "--json");

            assertThat(requests).hasSize(1);
            assertThat(requests.get(0)).contains("\"model\":\"test-model\"").contains("Use SQLite with WAL mode.");
            assertThat(result.err()).contains("not the JSON asked for").contains("Nothing was changed");
        } finally {
            server.stop(0);
        }
        assertThat(cli.ok("query", "note:*", "--json").json()).isEqualTo(before);
    }

    @Test
    void context_pages_hold_every_memory_once_within_the_budget() {
        for (int i = 1; i <= 8; i++) {
            cli.ok("set", "decision:d" + i, "Decision number " + i + " with some words to fill the page up a little.");
        }
        cli.ok("set", "learning:gradle", "Gradle caches are per user.", "--scope", "global");

        JsonNode first = cli.ok("context", "--budget", "60", "--json").json();
        int pages = first.path("pages").asInt();
        assertThat(pages).isGreaterThan(1);
        List<String> seen = new ArrayList<>();
        for (int page = 1; page <= pages; page++) {
            JsonNode shown = cli.ok("context", "--budget", "60", "--page", String.valueOf(page), "--json").json();
            assertThat(shown.path("tokens").asInt()).isLessThanOrEqualTo(60);
            assertThat(shown.path("text").asText()).startsWith("# Memory context");
            shown.path("entries").forEach(e -> seen.add(e.path("scope").asText() + " " + e.path("key").asText()));
        }
        List<String> expected = new ArrayList<>(IntStream.rangeClosed(1, 8).mapToObj(i -> "project decision:d" + i).toList());
        expected.add("global learning:gradle");
        assertThat(seen).containsExactlyInAnyOrderElementsOf(expected);

        CliHarness.Result text = cli.ok("context", "--budget", "60");
        assertThat(text.out()).startsWith("# Memory context").contains("## learning").doesNotContain("Page 1");
        assertThat(text.err()).contains("Page 1 of " + pages).contains("Next: --page 2");
        assertThat(cli.fails(ExitCodes.USAGE, "context", "--budget", "60", "--page", String.valueOf(pages + 1)).err())
                .contains("There is no context page " + (pages + 1));
    }

    private static int count(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }
}
