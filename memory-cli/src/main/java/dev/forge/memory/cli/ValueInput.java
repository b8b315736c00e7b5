package dev.forge.memory.cli;

import dev.forge.memory.ValueTooLargeException;
import dev.forge.memory.Keys;
import dev.forge.memory.support.files.LimitedText;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads {@code set}'s value from stdin or a file no further than the provider's value limit ({@link LimitedText}), so
 * that an endless stdin or a file larger than memory ends in one sentence and exit 2, not in an
 * {@link OutOfMemoryError}. A value's limit is in UTF-8 bytes, and the value is the bytes read, so bytes past the limit
 * prove it too large.
 */
final class ValueInput {

    private ValueInput() {
    }

    /**
     * Refuses a missing or doubly given value, and a missing value file, before the provider is opened.
     *
     * @throws UsageException naming what to give instead
     */
    static void checkGivenOnce(String key, String value, Path valueFile) {
        if (value != null && valueFile != null) {
            throw new UsageException("Give the value once: as VALUE, with --value-file F, or '-' for stdin; not both.");
        }
        if (value == null && valueFile == null) {
            throw new UsageException("No value for '" + key + "': give VALUE, --value-file F, or '-' to read stdin.");
        }
        if (valueFile != null && !java.nio.file.Files.exists(valueFile.toAbsolutePath())) {
            throw new UsageException("The value file " + valueFile.toAbsolutePath() + " does not exist.");
        }
    }

    /**
     * The value given as {@code value} (read from {@code stdin} when it is {@code -}) or in {@code valueFile}, read no
     * further than the limit of {@code provider}: read after the provider is open, since its limit is where reading stops.
     */
    static String read(InputStream stdin, String key, String value, Path valueFile, dev.forge.memory.MemoryProvider provider) {
        long limit = provider.limits().maxValueBytes();
        if ("-".equals(value)) {
            return read(stdin, key, limit, provider.name());
        }
        if (value != null) {
            return value;
        }
        return read(valueFile.toAbsolutePath(), key, limit, provider.name());
    }

    /**
     * The value on stdin.
     *
     * @param provider the provider's name, for messages
     * @throws ValueTooLargeException if it is over {@code limit} bytes
     * @throws UsageException         if it is not UTF-8 or cannot be read
     */
    static String read(InputStream stdin, String key, long limit, String provider) {
        try {
            return LimitedText.read(stdin, limit);
        } catch (LimitedText.TooLargeException e) {
            throw tooLarge(key, "stdin", e, provider);
        } catch (CharacterCodingException e) {
            throw notUtf8("stdin", e);
        } catch (IOException e) {
            throw new UsageException("stdin cannot be read: " + e.getMessage() + ".", e);
        }
    }

    /**
     * The value in {@code file}: refused by its size, unread, when it says it is over {@code limit}.
     *
     * @throws ValueTooLargeException if it is over {@code limit} bytes
     * @throws UsageException         if it does not exist, is not UTF-8 or cannot be read
     */
    static String read(Path file, String key, long limit, String provider) {
        try {
            return LimitedText.read(file, limit);
        } catch (LimitedText.TooLargeException e) {
            throw tooLarge(key, file.toString(), e, provider);
        } catch (CharacterCodingException e) {
            throw notUtf8(file.toString(), e);
        } catch (NoSuchFileException e) {
            throw new UsageException("The value file " + file + " does not exist.", e);
        } catch (IOException e) {
            throw new UsageException("The value file " + file + " cannot be read: " + CliIoException.reason(e) + ".", e);
        }
    }

    /** A value that is not valid text is refused rather than stored with replacement characters. */
    static UsageException notUtf8(String source, CharacterCodingException e) {
        return new UsageException("The value from " + source + " is not UTF-8 text.", e);
    }

    private static ValueTooLargeException tooLarge(String key, String source, LimitedText.TooLargeException e, String provider) {
        return new ValueTooLargeException("The value of key '" + Keys.abbreviate(key) + "' from " + source + " is "
                + e.describeSize() + "; the " + provider + " provider stores at most " + e.limit() + " bytes per value. "
                + "Split it, or store the content elsewhere and keep a reference.", e);
    }
}
