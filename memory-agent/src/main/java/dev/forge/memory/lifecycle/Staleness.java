package dev.forge.memory.lifecycle;

import dev.forge.memory.MemoryEntry;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;

/**
 * How old a memory is, by whole days since its last update:
 * <table>
 *   <caption>Staleness thresholds</caption>
 *   <tr><th>days since update</th><th>staleness</th></tr>
 *   <tr><td>0 to 30</td><td>{@link #FRESH}</td></tr>
 *   <tr><td>31 to 90</td><td>{@link #AGING}</td></tr>
 *   <tr><td>91 and more, or no date</td><td>{@link #STALE}</td></tr>
 * </table>
 * A date after today (a clock set back, a hand-edited stamp) counts as {@link #FRESH}.
 */
public enum Staleness {
    /** Updated 0 to 30 days ago, or in the future: use as is. */
    FRESH,
    /** Updated 31 to 90 days ago: verify critical claims. */
    AGING,
    /** Updated more than 90 days ago, or never stamped: do not rely on it without verification. */
    STALE;

    /** The most days a {@link #FRESH} memory may be old. */
    public static final int FRESH_DAYS = 30;
    /** The most days an {@link #AGING} memory may be old. */
    public static final int AGING_DAYS = 90;

    /** The advisory the adapter attaches to a stale memory. */
    public static final String STALE_ADVISORY = "[POTENTIALLY STALE]";

    /** The staleness of a memory updated {@code days} days ago (negative: in the future). */
    public static Staleness ofDays(long days) {
        if (days <= FRESH_DAYS) {
            return FRESH;
        }
        return days <= AGING_DAYS ? AGING : STALE;
    }

    /** The staleness of a memory last updated on {@code lastUpdated}; {@link #STALE} when there is no date. */
    public static Staleness of(Optional<LocalDate> lastUpdated, LocalDate today) {
        return lastUpdated.map(date -> ofDays(daysBetween(date, today))).orElse(STALE);
    }

    /**
     * The staleness of any stored memory by its {@link MemoryEntry#updatedAt()}, taken as a UTC date: for memories
     * that are not layered documents and carry no timestamp line.
     */
    public static Staleness of(MemoryEntry entry, LocalDate today) {
        return ofDays(daysSince(entry, today));
    }

    /** Whole days from the UTC date of the entry's {@code updatedAt} to {@code today}; negative if in the future. */
    public static long daysSince(MemoryEntry entry, LocalDate today) {
        return daysBetween(LocalDate.ofInstant(entry.updatedAt(), ZoneOffset.UTC), today);
    }

    /** Whole days from {@code date} to {@code today}; negative if {@code date} is later. */
    public static long daysBetween(LocalDate date, LocalDate today) {
        return ChronoUnit.DAYS.between(date, today);
    }

    /** The adapter's lower-case name: {@code fresh}, {@code aging} or {@code stale}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
