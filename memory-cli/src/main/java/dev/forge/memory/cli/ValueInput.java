package dev.forge.memory.cli;

import dev.forge.memory.ValueTooLargeException;
import dev.forge.memory.spi.Keys;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads {@code set}'s value from stdin or a file no further than the provider's value limit, so that an endless
 * stdin or a file larger than memory ends in one sentence and exit 2, not in an {@link OutOfMemoryError}. A value's
 * limit is in UTF-8 bytes, and the value is the bytes read, so bytes past the limit prove it too large.
 */
final class ValueInput {

    private ValueInput() {
    }

    /**
     * The text of {@code in}, read to its end but no further than {@code limit} + 1 bytes.
     *
     * @param source   "stdin" or the file, for messages
     * @param provider the provider's name, for messages
     * @throws ValueTooLargeException if there are more than {@code limit} bytes
     * @throws UsageException         if the bytes are not UTF-8 or cannot be read
     */
    static String read(InputStream in, String source, String key, long limit, String provider) {
        byte[] bytes;
        try {
            bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
        } catch (IOException e) {
            throw new UsageException("The value from " + source + " cannot be read: " + e.getMessage() + ".", e);
        }
        if (bytes.length > limit) {
            throw tooLarge(key, source, "more than " + limit + " bytes", limit, provider);
        }
        return SetCommand.decode(bytes, source);
    }

    /**
     * The text of {@code file}: refused by its size, unread, when it says it is over {@code limit}; otherwise read as
     * {@link #read(InputStream, String, String, long, String)} reads a stream (a pipe or device has no size).
     *
     * @throws UsageException if the file does not exist or cannot be read
     */
    static String read(Path file, String key, long limit, String provider) {
        try (SeekableByteChannel channel = Files.newByteChannel(file)) {
            long size = Files.isRegularFile(file) ? channel.size() : 0;
            if (size > limit) {
                throw tooLarge(key, file.toString(), size + " bytes", limit, provider);
            }
            return read(Channels.newInputStream(channel), file.toString(), key, limit, provider);
        } catch (NoSuchFileException e) {
            throw new UsageException("The value file " + file + " does not exist.", e);
        } catch (IOException e) {
            throw new UsageException("The value file " + file + " cannot be read: " + CliIoException.reason(e) + ".", e);
        }
    }

    private static ValueTooLargeException tooLarge(String key, String source, String size, long limit, String provider) {
        return new ValueTooLargeException("The value of key '" + Keys.abbreviate(key) + "' from " + source + " is " + size + "; the "
                + provider + " provider stores at most " + limit + " bytes per value. Split it, or store the content "
                + "elsewhere and keep a reference.");
    }
}
