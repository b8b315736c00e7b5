package dev.forge.memory.conformance;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock for contracts: starts at a fixed instant and moves forward one millisecond each time it is read,
 * so that successive writes get distinct, ordered timestamps; {@link #advance} jumps ahead, {@link #rewind} goes
 * back, and {@link #freezeAt} stops it at one instant, however often a provider reads it, until {@link #resume}.
 *
 * <p>Safe to read from many threads at once.
 */
public final class TestClock extends Clock {

    /** Where every test clock starts. */
    public static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private long millis = START.toEpochMilli();
    private boolean frozen;

    /** A clock at {@link #START}. */
    public TestClock() {
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("TestClock is always UTC");
    }

    @Override
    public synchronized Instant instant() {
        return Instant.ofEpochMilli(frozen ? millis : millis++);
    }

    /** The instant the next read will return, without consuming it. */
    public synchronized Instant peek() {
        return Instant.ofEpochMilli(millis);
    }

    /** Jumps ahead by {@code duration}; while frozen, moves the frozen instant. */
    public synchronized void advance(Duration duration) {
        millis += duration.toMillis();
    }

    /**
     * Moves the clock back by {@code duration}, to test that a provider copes with a clock that goes backwards;
     * while frozen, moves the frozen instant.
     */
    public synchronized void rewind(Duration duration) {
        millis -= duration.toMillis();
    }

    /**
     * Stops the clock at {@code instant}: every read returns it until {@link #resume()}. For tests that need
     * several writes at one instant without knowing how often a provider reads the clock per write.
     */
    public synchronized void freezeAt(Instant instant) {
        millis = instant.toEpochMilli();
        frozen = true;
    }

    /** Lets a frozen clock tick on from one millisecond after the frozen instant; does nothing if not frozen. */
    public synchronized void resume() {
        if (frozen) {
            frozen = false;
            millis++;
        }
    }
}
