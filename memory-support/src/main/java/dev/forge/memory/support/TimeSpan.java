package dev.forge.memory.support;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.forge.memory.ConfigurationException;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A length of time for configuration: a plain number of seconds ({@code 3600}, as seed 004 writes {@code ttl: 3600}),
 * or a number with a unit: {@code 250ms}, {@code 90s}, {@code 10 m}, {@code 1h}, {@code 2d}. Zero is allowed (it means
 * "no waiting" or "no caching" where a setting allows it); negative spans are not. Written back with its unit
 * ({@link #toString()}), so a value read back means the same.
 *
 * @param duration the length, zero or more
 */
public record TimeSpan(Duration duration) {

    private static final Pattern FORM = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)?", Pattern.CASE_INSENSITIVE);

    /** Rejects null and negative lengths. */
    public TimeSpan {
        if (duration == null || duration.isNegative()) {
            throw new ConfigurationException("A length of time must be zero or more, was " + duration + ".");
        }
    }

    /** A span of {@code seconds} seconds: what a plain number in config means. */
    @JsonCreator
    public static TimeSpan ofSeconds(long seconds) {
        if (seconds < 0) {
            throw new ConfigurationException("A length of time must be zero or more, was " + seconds + " seconds.");
        }
        try {
            return new TimeSpan(Duration.ofMillis(Math.multiplyExact(seconds, 1000L)));
        } catch (ArithmeticException e) {
            throw new ConfigurationException(seconds + " seconds is too long a length of time.");
        }
    }

    /** A span of {@code millis} milliseconds. */
    public static TimeSpan ofMillis(long millis) {
        if (millis < 0) {
            throw new ConfigurationException("A length of time must be zero or more, was " + millis + " ms.");
        }
        return new TimeSpan(Duration.ofMillis(millis));
    }

    /**
     * Parses {@code 250} (seconds), {@code 500ms}, {@code 5s}, {@code 10m}, {@code 1h}, {@code 2d}.
     *
     * @throws ConfigurationException for any other text
     */
    @JsonCreator
    public static TimeSpan parse(String text) {
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) {
            throw new ConfigurationException("'" + text + "' is not a length of time: write a whole number of seconds "
                    + "(3600) or a number with a unit: 250ms, 90s, 5m, 1h, 2d.");
        }
        try {
            long number = Long.parseLong(m.group(1));
            String unit = m.group(2) == null ? "s" : m.group(2).toLowerCase(Locale.ROOT);
            Duration duration = switch (unit) {
                case "s" -> Duration.ofSeconds(number);
                case "m" -> Duration.ofMinutes(number);
                case "h" -> Duration.ofHours(number);
                case "d" -> Duration.ofDays(number);
                default -> Duration.ofMillis(number);
            };
            duration.toMillis(); // must fit in milliseconds
            return new TimeSpan(duration);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new ConfigurationException("'" + text + "' is too long a length of time.");
        }
    }

    /** The length in milliseconds. */
    public long toMillis() {
        return duration.toMillis();
    }

    /** As config writes it: the number in the largest unit that divides it exactly ({@code 1h}, {@code 90s}, {@code 250ms}). */
    @JsonValue
    @Override
    public String toString() {
        long millis = duration.toMillis();
        long[] factors = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
        String[] units = {"d", "h", "m", "s"};
        for (int i = 0; i < factors.length; i++) {
            if (millis != 0 && millis % factors[i] == 0) {
                return millis / factors[i] + units[i];
            }
        }
        return millis == 0 ? "0s" : millis + "ms";
    }
}
