package dev.forge.memory.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

/**
 * Measures that are not timings (recall@10, peak RSS, embedding cost per text), recorded from inside a benchmark's
 * trial and merged by the report into {@code latest.json} beside the timed pairs. Each call appends one JSON line to
 * {@code $forge.bench.extras} (a file bin/bench names); without that property nothing is recorded.
 */
public final class Extras {

    /** The system property naming the JSON Lines file extras are appended to. */
    public static final String FILE_PROPERTY = "forge.bench.extras";

    private static final ObjectMapper JSON = new ObjectMapper();

    private Extras() {
    }

    /**
     * Records one measure.
     *
     * @param name     a stable name, e.g. {@code vector.recall_at_10}
     * @param ours     our value
     * @param baseline the baseline's value (exact search's recall, the raw baseline's RSS...)
     * @param unit     the unit of both, e.g. {@code recall}, {@code MB}, {@code ms/text}
     * @param ratio    ours relative to the baseline, oriented so that higher is better (recall: ours / baseline;
     *                 memory: baseline / ours)
     * @param target   the ratio to reach, {@code 0} for none
     * @param params   what the measure ran on (sizes, model)
     */
    public static synchronized void record(String name, double ours, double baseline, String unit, double ratio,
            double target, Map<String, ?> params) {
        String file = System.getProperty(FILE_PROPERTY);
        if (file == null || file.isBlank()) {
            return;
        }
        ObjectNode line = JSON.createObjectNode();
        line.put("name", name).put("ours", ours).put("baseline", baseline).put("unit", unit).put("ratio", ratio);
        if (target > 0) {
            line.put("target", target);
        }
        line.set("params", JSON.valueToTree(params));
        try {
            Files.writeString(Path.of(file), line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot record the measure " + name + " in " + file, e);
        }
    }
}
