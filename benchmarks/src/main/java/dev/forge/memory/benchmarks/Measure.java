package dev.forge.memory.benchmarks;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the {@code <measure>_ours} benchmark method of a pair: the report pairs it with {@code <measure>_baseline} in
 * the same class, run on the same data, and computes {@code ratio} as the speed of ours relative to the baseline
 * (throughput: ours / baseline; time per operation: baseline / ours), so that 1.0 means "as fast" whatever the mode.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Measure {

    /** What is compared, in a few words, e.g. "sqlite get vs raw JDBC SELECT". */
    String value();

    /**
     * The target ratio (speed of ours / speed of baseline) this measure must reach, e.g. 0.8; a "at most 3x the time"
     * target is 1/3. {@code 0} when there is no target.
     */
    double target() default 0;
}
