package dev.forge.memory.support;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.forge.memory.ConfigurationException;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A length of time for configuration: a plain number of milliseconds, or text such as {@code 500ms}, {@code 5s},
 * {@code 10 m}, {@code 1h}, {@code 2d}. Zero is allowed (it means "no waiting" or "no caching" where a setting
 * allows it); negative spans are not.
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

    /** A span of {@code millis} milliseconds. */
    @JsonCreator
    public static TimeSpan ofMillis(long millis) {
        if (millis < 0) {
            throw new ConfigurationException("A length of time must be zero or more, was " + millis + " ms.");
        }
        return new TimeSpan(Duration.ofMillis(millis));
    }

    /**
     * Parses {@code 250}, {@code 500ms}, {@code 5s}, {@code 10m}, {@code 1h}, {@code 2d}.
     *
     * @throws ConfigurationException for any other text
     */
    @JsonCreator
    public static TimeSpan parse(String text) {
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) {
            throw new ConfigurationException("'" + text + "' is not a length of time: write milliseconds or e.g. "
                    + "500ms, 5s, 10m, 1h, 2d.");
        }
        try {
            long number = Long.parseLong(m.group(1));
            String unit = m.group(2) == null ? "ms" : m.group(2).toLowerCase(Locale.ROOT);
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

    /** The length in milliseconds, as config writes it. */
    @JsonValue
    public long toMillis() {
        return duration.toMillis();
    }

    @Override
    public String toString() {
        return duration.toMillis() + "ms";
    }
}
