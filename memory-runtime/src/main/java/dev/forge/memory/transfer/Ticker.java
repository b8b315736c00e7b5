package dev.forge.memory.transfer;

import java.time.Duration;

/**
 * Reports one phase's progress every {@value #EVERY} records and at least every interval (a second by default), so
 * that a bar moves even when each record is slow (a remote backend, a model embedding each value).
 */
final class Ticker {

    static final int EVERY = 1000;
    static final Duration INTERVAL = Duration.ofSeconds(1);

    private final TransferProgress progress;
    private final String phase;
    private final long intervalNanos;
    private long last = System.nanoTime();

    Ticker(TransferProgress progress, String phase, Duration interval) {
        this.progress = progress;
        this.phase = phase;
        this.intervalNanos = interval.toNanos();
    }

    /** {@code done} of {@code total} (-1: unknown) records are finished; reported if a count or the interval is due. */
    void tick(long done, long total) {
        long now = System.nanoTime();
        if (done % EVERY == 0 || now - last >= intervalNanos) {
            last = now;
            progress.update(phase, done, total);
        }
    }
}
