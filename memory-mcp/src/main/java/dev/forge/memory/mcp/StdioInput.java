package dev.forge.memory.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's stdin as the SDK's stdio transport reads it, with three changes. A line that is not a JSON-RPC message
 * is answered with a JSON-RPC parse error and skipped: the transport would otherwise end the session on it, and one
 * bad line from a client must not stop the server. The end of the input reaches the transport only once the requests
 * read before it are answered (or {@link #DRAIN_MILLIS} have passed), so that a client may write its requests and
 * close its end at once ({@code forge-memory mcp < requests.jsonl}). And the end is signalled, so that the serving
 * thread knows when to close.
 */
final class StdioInput extends InputStream {

    private static final Logger LOG = LoggerFactory.getLogger(StdioInput.class);

    /** How long the end of the input waits for the answers to the requests read before it. */
    static final long DRAIN_MILLIS = 60_000;

    private final BufferedReader reader;
    private final StdioOutput out;
    private final McpJsonMapper jsonMapper;
    private final CountDownLatch ended = new CountDownLatch(1);
    private byte[] line = new byte[0];
    private int position;

    private long requests;

    StdioInput(InputStream in, StdioOutput out, McpJsonMapper jsonMapper) {
        this.reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        this.out = out;
        this.jsonMapper = jsonMapper;
    }

    @Override
    public int read() throws IOException {
        if (!fill()) {
            return -1;
        }
        return line[position++] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int count = Math.min(length, line.length - position);
        System.arraycopy(line, position, buffer, offset, count);
        position += count;
        return count;
    }

    /** Ends the input now, as if the client had closed it: {@link #awaitEnd} returns. */
    void end() {
        ended.countDown();
    }

    /** Blocks until the input has ended. */
    void awaitEnd() {
        try {
            ended.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Makes the next good line current; false at the end of the input. */
    private boolean fill() throws IOException {
        while (position >= line.length) {
            String next;
            try {
                next = reader.readLine();
            } catch (IOException e) {
                ended.countDown();
                throw e;
            }
            if (next == null) {
                try {
                    out.awaitResponses(requests, DRAIN_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                ended.countDown();
                return false;
            }
            if (next.isBlank()) {
                continue;
            }
            if (accepted(next)) {
                line = (next + "\n").getBytes(StandardCharsets.UTF_8);
                position = 0;
            }
        }
        return true;
    }

    private boolean accepted(String text) throws IOException {
        try {
            if (McpSchema.deserializeJsonRpcMessage(jsonMapper, text) instanceof McpSchema.JSONRPCRequest) {
                requests++;
            }
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.warn("Skipped a line that is not a JSON-RPC message: {}", e.getMessage());
            out.writeLine("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":" + McpSchema.ErrorCodes.PARSE_ERROR
                    + ",\"message\":\"Parse error: the line is not a JSON-RPC message; it was skipped.\"}}");
            return false;
        }
    }
}
