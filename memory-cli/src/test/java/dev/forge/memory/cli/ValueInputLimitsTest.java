package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Limits;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code set KEY -} and {@code set KEY --value-file F} read no further than the provider's value limit (the default
 * provider's: {@link Limits#DEFAULT}), and {@code search --batch} no further than its input limit: an endless stdin
 * and a file far larger than memory are refused with exit 2 and one sentence, and nothing is stored or searched.
 */
class ValueInputLimitsTest {

    private static final long LIMIT = Limits.DEFAULT.maxValueBytes();

    /** What a reader may take past the limit: a buffer's worth, not the stream. */
    private static final long SLACK = 64 * 1024;

    private CliHarness cli;

    @BeforeEach
    void setUp(@TempDir Path root) {
        cli = new CliHarness(root);
    }

    private static void assertOneSentence(CliHarness.Result result, int exitCode) {
        assertThat(result.exitCode()).as(result.toString()).isEqualTo(exitCode);
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).startsWith("forge-memory: ").doesNotContain("\tat ").endsWith("\n");
        assertThat(result.err().lines().count()).as(result.err()).isEqualTo(1);
    }

    @Test
    void an_endless_stdin_is_read_no_further_than_the_limit_and_refused_with_exit_2() {
        EndlessStream endless = new EndlessStream(LIMIT + SLACK);

        CliHarness.Result result = cli.runWithStdin(endless, "set", "k", "-");

        assertOneSentence(result, ExitCodes.USAGE);
        assertThat(result.err()).contains("key 'k'").contains("at most " + LIMIT + " bytes");
        assertThat(endless.given).isGreaterThan(LIMIT).isLessThanOrEqualTo(LIMIT + SLACK);
        assertOneSentence(cli.run("get", "k"), ExitCodes.NOT_FOUND);
    }

    @Test
    void a_sparse_value_file_of_3_gib_is_refused_unread_with_exit_2() throws IOException {
        Path huge = cli.root.resolve("huge.txt");
        try (RandomAccessFile file = new RandomAccessFile(huge.toFile(), "rw")) {
            file.setLength(3L << 30);
        }

        CliHarness.Result result = cli.run("set", "k", "--value-file", huge.toString());

        assertOneSentence(result, ExitCodes.USAGE);
        assertThat(result.err()).contains("key 'k'").contains(String.valueOf(3L << 30)).contains("at most " + LIMIT + " bytes");
        assertOneSentence(cli.run("get", "k"), ExitCodes.NOT_FOUND);
    }

    @Test
    void a_value_of_exactly_the_limit_is_stored_from_stdin_and_from_a_file() throws IOException {
        byte[] atLimit = new byte[(int) LIMIT];
        Arrays.fill(atLimit, (byte) 'v');
        Path file = Files.write(cli.root.resolve("at-limit.txt"), atLimit);

        assertThat(cli.run("set", "from-file", "--value-file", file.toString()).exitCode()).isZero();
        assertThat(cli.runWithStdin(new java.io.ByteArrayInputStream(atLimit), "set", "from-stdin", "-").exitCode()).isZero();

        assertThat(cli.ok("get", "from-file").out()).hasSize((int) LIMIT + 1);
        assertThat(cli.ok("get", "from-stdin").out()).hasSize((int) LIMIT + 1);
    }

    @Test
    void an_endless_stdin_of_batch_queries_is_read_no_further_than_the_batch_limit_and_refused_with_exit_2() {
        EndlessStream endless = new EndlessStream(BatchSearch.MAX_INPUT_BYTES + SLACK);

        CliHarness.Result result = cli.runWithStdin(endless, "search", "--batch", "-");

        assertOneSentence(result, ExitCodes.USAGE);
        assertThat(result.err()).contains("stdin").contains("limit of " + BatchSearch.MAX_INPUT_BYTES + " bytes");
        assertThat(endless.given).isGreaterThan(BatchSearch.MAX_INPUT_BYTES);
    }

    @Test
    void a_sparse_queries_file_of_3_gib_is_refused_unread_with_exit_2() throws IOException {
        Path huge = cli.root.resolve("queries.jsonl");
        try (RandomAccessFile file = new RandomAccessFile(huge.toFile(), "rw")) {
            file.setLength(3L << 30);
        }

        CliHarness.Result result = cli.run("search", "--batch", huge.toString());

        assertOneSentence(result, ExitCodes.USAGE);
        assertThat(result.err()).contains(huge.toString()).contains(String.valueOf(3L << 30));
    }

    /**
     * Spaces without end, counting what it gave; past {@code bound} it fails the test at once, so that a reader that
     * reads on to the end fails the test instead of running out of memory.
     */
    private static final class EndlessStream extends InputStream {
        private final long bound;
        long given;

        EndlessStream(long bound) {
            this.bound = bound;
        }

        @Override
        public int read() {
            return read(new byte[1], 0, 1) < 0 ? -1 : ' ';
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            if (given + length > bound) {
                throw new AssertionError("read past " + bound + " bytes of an endless stdin: the reader does not stop at the limit");
            }
            Arrays.fill(buffer, offset, offset + length, (byte) ' ');
            given += length;
            return length;
        }
    }
}
