package dev.forge.memory.benchmarks.report;

import java.util.Map;
import java.util.Optional;

/**
 * One measure of a run: ours and the baseline, in the same unit, with the ratio of their speeds.
 *
 * @param name        {@code <class simple name>.<measure>}, or an extra's own name
 * @param description what is compared (the {@code @Measure} text)
 * @param ours        our score, {@code NaN} when missing
 * @param baseline    the baseline's score, {@code NaN} when missing
 * @param unit        the unit of both scores (JMH's, e.g. {@code ops/s}, {@code ms/op})
 * @param ratio       speed of ours / speed of the baseline (higher is better), {@code NaN} when it cannot be computed
 * @param target      the ratio to reach, {@code 0} for none
 * @param params      the JMH parameters (sizes) both ran with
 * @param error       why the pair is incomplete, if it is
 */
public record Result(String name, String description, double ours, double baseline, String unit, double ratio,
        double target, Map<String, String> params, Optional<String> error) {

    /** Copies {@code params}. */
    public Result {
        params = Map.copyOf(params);
    }

    /** Whether the target is met; empty when there is no target or no ratio. */
    public Optional<Boolean> met() {
        if (target <= 0 || Double.isNaN(ratio)) {
            return Optional.empty();
        }
        return Optional.of(ratio >= target);
    }

    /** The name with its parameters, e.g. {@code SqliteBench.get (entries=1000)}. */
    public String label() {
        if (params.isEmpty()) {
            return name;
        }
        StringBuilder label = new StringBuilder(name).append(" (");
        new java.util.TreeMap<>(params).forEach((key, value) -> {
            if (label.charAt(label.length() - 1) != '(') {
                label.append(", ");
            }
            label.append(key).append('=').append(value);
        });
        return label.append(')').toString();
    }
}
