package dev.forge.memory.support;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.forge.memory.ConfigurationException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A size in bytes for configuration: a plain number of bytes, or text such as {@code 512KB}, {@code 10 MB},
 * {@code 1GiB} (KB, MB and GB are powers of 1024, like KiB, MiB and GiB).
 *
 * @param bytes the size in bytes, at least 1
 */
public record ByteSize(long bytes) {

    private static final Pattern FORM = Pattern.compile("(\\d+)\\s*([kmg]i?b?|b)?", Pattern.CASE_INSENSITIVE);

    /** Rejects sizes below one byte. */
    public ByteSize {
        if (bytes < 1) {
            throw new ConfigurationException("A size must be at least 1 byte, was " + bytes + ".");
        }
    }

    /** A size of {@code bytes} bytes. */
    @JsonCreator
    public static ByteSize ofBytes(long bytes) {
        return new ByteSize(bytes);
    }

    /**
     * Parses {@code 1024}, {@code 64KB}, {@code 10 MiB}, {@code 1g}...
     *
     * @throws ConfigurationException for any other text
     */
    @JsonCreator
    public static ByteSize parse(String text) {
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) {
            throw new ConfigurationException("'" + text + "' is not a size: write a number of bytes or e.g. 512KB, 10MB, 1GB.");
        }
        long number;
        try {
            number = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new ConfigurationException("'" + text + "' is too large a size.");
        }
        String unit = m.group(2) == null ? "b" : m.group(2).toLowerCase(Locale.ROOT);
        long factor = switch (unit.charAt(0)) {
            case 'k' -> 1024L;
            case 'm' -> 1024L * 1024;
            case 'g' -> 1024L * 1024 * 1024;
            default -> 1L;
        };
        try {
            return new ByteSize(Math.multiplyExact(number, factor));
        } catch (ArithmeticException e) {
            throw new ConfigurationException("'" + text + "' is too large a size.");
        }
    }

    /** The number of bytes, as config writes it. */
    @JsonValue
    public long toBytes() {
        return bytes;
    }
}
