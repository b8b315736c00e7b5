package dev.forge.memory.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The server's stdout as the SDK's stdio transport writes it (one JSON-RPC message a line), counting the responses, so
 * that the end of the input can wait for the answers to the requests already read ({@link StdioInput}).
 */
final class StdioOutput extends OutputStream {

    private final OutputStream out;
    private final ObjectMapper mapper = new ObjectMapper();
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private long responses;

    StdioOutput(OutputStream out) {
        this.out = out;
    }

    @Override
    public synchronized void write(int b) throws IOException {
        out.write(b);
        take(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
        take(bytes, offset, length);
    }

    @Override
    public synchronized void flush() throws IOException {
        out.flush();
    }

    /** Writes a line of the server's own (a parse error), not counted as a response to a request read. */
    synchronized void writeLine(String text) throws IOException {
        out.write((text + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** Blocks until {@code count} responses have been written, or {@code millis} have passed. */
    synchronized void awaitResponses(long count, long millis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (responses < count) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                return;
            }
            wait(left);
        }
    }

    private void take(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            if (bytes[i] == '\n') {
                count(line.toByteArray());
                line.reset();
            } else {
                line.write(bytes[i]);
            }
        }
    }

    private void count(byte[] message) {
        try {
            JsonNode node = mapper.readTree(message);
            // A response has an id and no method; a notification or a request of the server has a method.
            if (node != null && node.has("id") && !node.has("method")) {
                responses++;
                notifyAll();
            }
        } catch (IOException e) {
            // Not JSON: not a response either.
        }
    }
}
