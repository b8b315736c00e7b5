package dev.forge.memory.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static JsonNode canned;

    @BeforeAll
    static void readCanned() throws IOException {
        try (InputStream in = ReportTest.class.getResourceAsStream("/report/jmh-canned.json")) {
            canned = JSON.readTree(in);
        }
    }

    private static Result find(List<Result> results, String name, Map<String, String> params) {
        return results.stream().filter(r -> r.name().equals(name) && r.params().equals(params)).findFirst().orElseThrow();
    }

    @Test
    void pairs_ours_with_the_baseline_of_the_same_params() {
        List<Result> results = Report.pair(canned);

        assertThat(results).extracting(Result::label).containsExactly("CannedBench.lonely (entries=1000)",
                "CannedBench.plain (records=100)", "CannedBench.read", "CannedBench.write (entries=1000)",
                "CannedBench.write (entries=10000)");
        Result small = find(results, "CannedBench.write", Map.of("entries", "1000"));
        assertThat(small.ours()).isEqualTo(900.0);
        assertThat(small.baseline()).isEqualTo(1000.0);
        assertThat(small.ratio()).isCloseTo(0.9, within(1e-9));
        assertThat(small.unit()).isEqualTo("ops/s");
        assertThat(small.description()).isEqualTo("writes per second");
        assertThat(small.target()).isEqualTo(0.8);
        assertThat(small.met()).contains(true);
        Result large = find(results, "CannedBench.write", Map.of("entries", "10000"));
        assertThat(large.ratio()).isCloseTo(0.5, within(1e-9));
        assertThat(large.met()).contains(false);
    }

    @Test
    void time_modes_divide_the_baseline_by_ours() {
        List<Result> results = Report.pair(canned);

        Result read = find(results, "CannedBench.read", Map.of());
        assertThat(read.ratio()).isCloseTo(1.0 / 3, within(1e-9));
        assertThat(read.met()).contains(true); // exactly 3x the time meets "at most 3x"
        Result plain = find(results, "CannedBench.plain", Map.of("records", "100"));
        assertThat(plain.ratio()).isCloseTo(0.5, within(1e-9));
        assertThat(plain.met()).isEmpty();
        assertThat(Report.ratio("thrpt", 3, 6)).isEqualTo(0.5);
        assertThat(Report.ratio("avgt", 3, 6)).isEqualTo(2.0);
        assertThat(Report.ratio("sample", 3, 6)).isEqualTo(2.0);
        assertThat(Report.ratio("thrpt", 0, 6)).isNaN();
    }

    @Test
    void a_pair_missing_a_side_is_an_error_not_dropped() {
        Result lonely = find(Report.pair(canned), "CannedBench.lonely", Map.of("entries", "1000"));

        assertThat(lonely.error()).hasValueSatisfying(error -> assertThat(error).contains("lonely_baseline"));
        assertThat(lonely.ratio()).isNaN();
        assertThat(lonely.baseline()).isNaN();
        assertThat(lonely.met()).isEmpty();
    }

    @Test
    void latest_json_has_one_object_per_measure_with_nulls_where_nothing_was_measured() {
        JsonNode json = Report.json(Report.pair(canned));

        assertThat(json).hasSize(5);
        JsonNode write = json.get(3);
        assertThat(write.get("name").asText()).isEqualTo("CannedBench.write");
        assertThat(write.get("ours").asDouble()).isEqualTo(900.0);
        assertThat(write.get("baseline").asDouble()).isEqualTo(1000.0);
        assertThat(write.get("unit").asText()).isEqualTo("ops/s");
        assertThat(write.get("ratio").asDouble()).isCloseTo(0.9, within(1e-9));
        assertThat(write.get("target").asDouble()).isEqualTo(0.8);
        assertThat(write.get("met").asBoolean()).isTrue();
        assertThat(write.get("params").get("entries").asText()).isEqualTo("1000");
        assertThat(write.has("error")).isFalse();
        JsonNode lonely = json.get(0);
        assertThat(lonely.get("ratio").isNull()).isTrue();
        assertThat(lonely.get("baseline").isNull()).isTrue();
        assertThat(lonely.get("met").isNull()).isTrue();
        assertThat(lonely.get("error").asText()).contains("lonely_baseline");
        assertThat(json.get(1).get("target").isNull()).isTrue();
    }

    @Test
    void extras_are_merged_as_recorded_and_a_later_line_wins() {
        List<Result> extras = Report.extras(List.of(
                "{\"name\":\"vector.recall_at_10\",\"ours\":0.8,\"baseline\":1.0,\"unit\":\"recall\",\"ratio\":0.8,\"target\":0.9,"
                        + "\"params\":{\"corpus\":100}}",
                "",
                "{\"name\":\"vector.recall_at_10\",\"ours\":0.95,\"baseline\":1.0,\"unit\":\"recall\",\"ratio\":0.95,\"target\":0.9,"
                        + "\"params\":{\"corpus\":100}}"));

        assertThat(extras).singleElement().satisfies(extra -> {
            assertThat(extra.name()).isEqualTo("vector.recall_at_10");
            assertThat(extra.ours()).isEqualTo(0.95);
            assertThat(extra.ratio()).isEqualTo(0.95);
            assertThat(extra.met()).contains(true);
            assertThat(extra.params()).containsExactly(Map.entry("corpus", "100"));
        });
    }

    @Test
    void markdown_lists_every_measure_errors_and_missed_targets_with_their_notes() {
        Properties notes = new Properties();
        notes.setProperty("CannedBench.write", "Each write commits on its own; batching would close it.");
        String md = Report.markdown(Report.pair(canned), new Report.Machine("Test CPU", 2, "4.0 GiB", "Linux", "JDK 17"),
                Report.settings(canned), true, notes);

        assertThat(md).contains("- CPU: Test CPU, 2 cores", "- JDK: JDK 17", "- Run: quick",
                "| CannedBench.write (entries=1000) | writes per second | 900 | 1,000 | ops/s | 0.90 | 0.80 | yes |",
                "| CannedBench.write (entries=10000) | writes per second | 1,000 | 2,000 | ops/s | 0.50 | 0.80 | **no** |",
                "| CannedBench.read | time of a read | 60.0 | 20.0 | ns/op | 0.33 | 0.33 | yes |",
                "| CannedBench.lonely (entries=1000) | a lone side | 5.00 | – | ops/s | **error** |  |  |",
                "## Errors", "- **CannedBench.lonely (entries=1000)**: no result for lonely_baseline",
                "- **CannedBench.write (entries=10000)**: ratio 0.50, target 0.80. Each write commits on its own;",
                "## Method",
                "mode thrpt, 1 fork(s), 1 thread(s), warmup 1 x 2 s, measurement 2 x 2 s: CannedBench.write_ours",
                "mode ss, 1 fork(s), 1 thread(s), warmup 1 x 1 op, measurement 2 x 1 op: CannedBench.plain_ours");
        assertThat(md).doesNotContain("CannedBench.helper |");
        assertThat(md.indexOf("## Missed targets")).isGreaterThan(md.indexOf("## Method"));
    }

    @Test
    void main_writes_both_files(@TempDir Path dir) throws IOException {
        Path jmh = dir.resolve("jmh.json");
        Files.writeString(jmh, canned.toString());
        Path extras = dir.resolve("extras.jsonl");
        Files.writeString(extras, "{\"name\":\"x.rss\",\"ours\":10,\"baseline\":20,\"unit\":\"MB\",\"ratio\":2.0,\"params\":{}}\n");

        Report.main(new String[] {"--jmh", jmh.toString(), "--extras", extras.toString(), "--json",
                dir.resolve("out/latest.json").toString(), "--markdown", dir.resolve("docs/PERFORMANCE.md").toString()});

        JsonNode latest = JSON.readTree(dir.resolve("out/latest.json").toFile());
        assertThat(latest).hasSize(6);
        assertThat(latest.get(5).get("name").asText()).isEqualTo("x.rss");
        assertThat(Files.readString(dir.resolve("docs/PERFORMANCE.md"))).contains("- Run: full", "| x.rss | x.rss | 10.0 | 20.0 | MB | 2.00 |");
        assertThat(Optional.of(latest.get(5).get("met").isNull())).contains(true);
    }

    private static JsonNode sample() throws IOException {
        try (InputStream in = ReportTest.class.getResourceAsStream("/report/jmh-sample.json")) {
            return JSON.readTree(in);
        }
    }

    @Test
    void sample_mode_pairs_are_reported_at_p50_and_p99() throws IOException {
        List<Result> results = Report.pair(sample());

        assertThat(results).extracting(Result::label).containsExactly("CannedBench.latency.p50 (entries=10000)",
                "CannedBench.latency.p99 (entries=10000)");
        Result p50 = results.get(0);
        assertThat(p50.ours()).isEqualTo(2.0);
        assertThat(p50.baseline()).isEqualTo(4.0);
        assertThat(p50.ratio()).isCloseTo(2.0, within(1e-9));
        assertThat(p50.met()).contains(true);
        assertThat(p50.description()).isEqualTo("tool-call latency (p50)");
        Result p99 = results.get(1);
        assertThat(p99.ratio()).isCloseTo(0.5, within(1e-9));
        assertThat(p99.met()).contains(false);

        Properties notes = new Properties();
        notes.setProperty("CannedBench.latency", "One note for every percentile of the measure.");
        String md = Report.markdown(results, new Report.Machine("Test CPU", 2, "4.0 GiB", "Linux", "JDK 17"),
                Report.settings(sample()), false, notes);
        assertThat(md).contains(
                "| CannedBench.latency.p50 (entries=10000) | tool-call latency (p50) | 2.00 | 4.00 | ms/op | 2.00 | 1.00 | yes |",
                "| CannedBench.latency.p99 (entries=10000) | tool-call latency (p99) | 10.0 | 5.00 | ms/op | 0.50 | 1.00 | **no** |",
                "- **CannedBench.latency.p99 (entries=10000)**: ratio 0.50, target 1.00. One note for every percentile");
    }

    @Test
    void a_filtered_run_carries_the_measures_it_did_not_run_from_the_previous_latest_json(@TempDir Path dir)
            throws IOException {
        Path earlier = dir.resolve("jmh-earlier.json");
        Files.writeString(earlier, canned.toString());
        Path latest = dir.resolve("latest.json");
        Path markdown = dir.resolve("PERFORMANCE.md");
        Report.main(new String[] {"--jmh", earlier.toString(), "--json", latest.toString(), "--markdown",
                markdown.toString()});
        Path now = dir.resolve("jmh-now.json");
        Files.writeString(now, sample().toString());

        Report.main(new String[] {"--jmh", now.toString(), "--previous", latest.toString(), "--json", latest.toString(),
                "--markdown", markdown.toString()});

        JsonNode json = JSON.readTree(latest.toFile());
        assertThat(json).hasSize(2 + 5);
        assertThat(json.get(0).get("name").asText()).isEqualTo("CannedBench.latency.p50");
        assertThat(json.get(0).has("earlier")).isFalse();
        JsonNode write = json.get(2 + 3);
        assertThat(write.get("name").asText()).isEqualTo("CannedBench.write");
        assertThat(write.get("ratio").asDouble()).isCloseTo(0.9, within(1e-9));
        assertThat(write.get("earlier").asBoolean()).isTrue();
        String md = Files.readString(markdown);
        assertThat(md).contains("| CannedBench.latency.p50 (entries=10000) |", "## Earlier results",
                "| CannedBench.write (entries=1000) | writes per second | 900 | 1,000 | ops/s | 0.90 | 0.80 | yes |",
                "- **CannedBench.write (entries=10000)** (earlier run): ratio 0.50, target 0.80.");
        assertThat(md.indexOf("CannedBench.write (entries=1000)")).isGreaterThan(md.indexOf("## Earlier results"));

        // Run again with the same filter: the carried measures stay, once each; one run again replaces its carried row.
        Files.writeString(now, JSON.createArrayNode().addAll((com.fasterxml.jackson.databind.node.ArrayNode) sample())
                .add(canned.get(4)).add(canned.get(5)).toString());
        Report.main(new String[] {"--jmh", now.toString(), "--previous", latest.toString(), "--json", latest.toString(),
                "--markdown", markdown.toString()});
        JsonNode again = JSON.readTree(latest.toFile());
        assertThat(again).hasSize(2 + 5);
        assertThat(again).filteredOn(node -> node.get("name").asText().equals("CannedBench.read")).singleElement()
                .satisfies(read -> assertThat(read.has("earlier")).isFalse());
    }

    @Test
    void the_markdown_names_the_command_and_the_machine_load_it_was_given(@TempDir Path dir) throws IOException {
        Path jmh = dir.resolve("jmh.json");
        Files.writeString(jmh, sample().toString());
        Path markdown = dir.resolve("PERFORMANCE.md");

        Report.main(new String[] {"--jmh", jmh.toString(), "--json", dir.resolve("latest.json").toString(),
                "--markdown", markdown.toString(), "--command", "bin/bench 'McpToolBench|McpWriteBench'", "--load",
                "at the start 3.56 7.46 7.46, at the end 2.01 4.00 5.00"});

        assertThat(Files.readString(markdown)).contains("Written by `bin/bench 'McpToolBench|McpWriteBench'` on ",
                "- Load average (1, 5, 15 min): at the start 3.56 7.46 7.46, at the end 2.01 4.00 5.00");
    }
}
