package dev.forge.memory.conformance;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock for contracts: starts at a fixed instant and moves forward one millisecond each time it is read,
 * so that successive writes get distinct, ordered timestamps; {@link #advance} jumps ahead.
 */
public final class TestClock extends Clock {

    /** Where every test clock starts. */
    public static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private final AtomicLong millis;

    /** A clock at {@link #START}. */
    public TestClock() {
        this.millis = new AtomicLong(START.toEpochMilli());
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
    public Instant instant() {
        return Instant.ofEpochMilli(millis.getAndIncrement());
    }

    /** The instant the next read will return, without consuming it. */
    public Instant peek() {
        return Instant.ofEpochMilli(millis.get());
    }

    /** Jumps ahead by {@code duration}. */
    public void advance(Duration duration) {
        millis.addAndGet(duration.toMillis());
    }

    /** Moves the clock back by {@code duration}, to test that a provider copes with a clock that goes backwards. */
    public void rewind(Duration duration) {
        millis.addAndGet(-duration.toMillis());
    }
}
