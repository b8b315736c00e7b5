package dev.forge.memory.support.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a file or a stream as strict UTF-8 text no further than a limit, so that a file larger than memory, a device
 * or an endless pipe costs at most the limit instead of an {@link OutOfMemoryError}: a regular file over the limit is
 * refused by its size, unread; anything else is read to one byte past the limit, which proves it over.
 */
public final class LimitedText {

    /** The longest array a JVM reliably allocates. */
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

    private LimitedText() {
    }

    /** The input is over the limit; nothing of it is returned. */
    public static final class TooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        private final long size;
        private final long limit;

        TooLargeException(long size, long limit) {
            super(size >= 0 ? size + " bytes, over the limit of " + limit : "more than " + limit + " bytes");
            this.size = size;
            this.limit = limit;
        }

        /** The input's size in bytes where it is known (a regular file), else -1. */
        public long size() {
            return size;
        }

        /** The limit it is over, in bytes. */
        public long limit() {
            return limit;
        }

        /** The size in words: "N bytes" where known, else "more than LIMIT bytes". */
        public String describeSize() {
            return size >= 0 ? size + " bytes" : "more than " + limit + " bytes";
        }
    }

    /**
     * The text of {@code file}, at most {@code limit} bytes of UTF-8.
     *
     * @throws TooLargeException                 if it is over the limit
     * @throws CharacterCodingException          if it is not UTF-8
     * @throws java.nio.file.NoSuchFileException if it does not exist
     * @throws IOException                       if it cannot be read
     */
    public static String read(Path file, long limit) throws IOException {
        try (SeekableByteChannel channel = Files.newByteChannel(file)) {
            // A regular file says its size; a pipe or a device says 0 and is read with the bound.
            long size = Files.isRegularFile(file) ? channel.size() : 0;
            if (size > limit) {
                throw new TooLargeException(size, limit);
            }
            return read(Channels.newInputStream(channel), limit);
        }
    }

    /**
     * The text of {@code in}, read to its end but no further than {@code limit} + 1 bytes (and never more than a
     * Java array holds); {@code in} is not closed.
     *
     * @throws TooLargeException        if there are more than {@code limit} bytes
     * @throws CharacterCodingException if they are not UTF-8
     * @throws IOException              if {@code in} cannot be read
     */
    public static String read(InputStream in, long limit) throws IOException {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, was " + limit);
        }
        // A Java array holds a little under 2 GiB: a larger limit reads that much at the most.
        int cap = (int) Math.min(limit, MAX_ARRAY - 1);
        byte[] bytes = in.readNBytes(cap + 1);
        if (bytes.length > cap) {
            throw new TooLargeException(-1, cap);
        }
        return utf8(bytes);
    }

    /**
     * {@code bytes} decoded as UTF-8, refusing what is not: never text with replacement characters.
     *
     * @throws CharacterCodingException if they are not UTF-8
     */
    public static String utf8(byte[] bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes)).toString();
    }
}
