package dev.forge.memory.benchmarks.report;

import dev.forge.memory.benchmarks.Measure;

/** The benchmark class the canned JMH results name: only its {@code @Measure} annotations are read. */
public class CannedBench {

    @Measure(value = "writes per second", target = 0.8)
    public void write_ours() {
    }

    public void write_baseline() {
    }

    @Measure(value = "time of a read", target = 1.0 / 3)
    public void read_ours() {
    }

    public void read_baseline() {
    }

    @Measure("a lone side")
    public void lonely_ours() {
    }

    @Measure("no target")
    public void plain_ours() {
    }

    public void plain_baseline() {
    }

    @Measure(value = "tool-call latency", target = 1)
    public void latency_ours() {
    }

    public void latency_baseline() {
    }
}
