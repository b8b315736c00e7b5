package dev.forge.memory.support.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link LimitedText} reads: never more than one byte past the limit, and a file over it not at all. */
class LimitedTextTest {

    private static final int LIMIT = 4096;

    @TempDir
    Path root;

    @Test
    void an_endless_stream_is_read_to_exactly_one_byte_past_the_limit() {
        CountingEndlessStream endless = new CountingEndlessStream();

        assertThatThrownBy(() -> LimitedText.read(endless, LIMIT)).isInstanceOf(LimitedText.TooLargeException.class)
                .satisfies(e -> assertThat(((LimitedText.TooLargeException) e).describeSize()).isEqualTo("more than 4096 bytes"));
        assertThat(endless.consumed).isEqualTo(LIMIT + 1L);
    }

    @Test
    void a_regular_file_over_the_limit_is_refused_by_its_size() throws IOException {
        Path sparse = root.resolve("sparse");
        try (RandomAccessFile file = new RandomAccessFile(sparse.toFile(), "rw")) {
            file.setLength(5L << 30);
        }

        assertThatThrownBy(() -> LimitedText.read(sparse, LIMIT)).isInstanceOf(LimitedText.TooLargeException.class)
                .satisfies(e -> {
                    assertThat(((LimitedText.TooLargeException) e).size()).isEqualTo(5L << 30);
                    assertThat(((LimitedText.TooLargeException) e).describeSize()).isEqualTo((5L << 30) + " bytes");
                });
    }

    @Test
    void text_of_exactly_the_limit_is_read_whole_and_one_byte_more_is_refused() throws IOException {
        String text = "ü".repeat(LIMIT / 2);
        Path file = Files.writeString(root.resolve("at-limit"), text);

        assertThat(LimitedText.read(file, LIMIT)).isEqualTo(text);
        assertThat(LimitedText.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), LIMIT)).isEqualTo(text);
        Files.writeString(file, text + "x");
        assertThatThrownBy(() -> LimitedText.read(file, LIMIT)).isInstanceOf(LimitedText.TooLargeException.class);
    }

    @Test
    void bytes_that_are_not_utf8_are_refused_not_replaced() {
        byte[] latin1 = "Grüße".getBytes(StandardCharsets.ISO_8859_1);

        assertThatThrownBy(() -> LimitedText.read(new ByteArrayInputStream(latin1), LIMIT))
                .isInstanceOf(CharacterCodingException.class);
        assertThatThrownBy(() -> LimitedText.utf8(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}))
                .as("an encoded surrogate").isInstanceOf(CharacterCodingException.class);
    }

    /** Spaces without end, counting what was taken. */
    private static final class CountingEndlessStream extends InputStream {
        long consumed;

        @Override
        public int read() {
            consumed++;
            return ' ';
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            Arrays.fill(buffer, offset, offset + length, (byte) ' ');
            consumed += length;
            return length;
        }
    }
}
