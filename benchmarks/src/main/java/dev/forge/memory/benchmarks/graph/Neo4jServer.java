package dev.forge.memory.benchmarks.graph;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CountDownLatch;
import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilders;

/**
 * One in-process Neo4j server (neo4j-harness, Bolt only, no authentication) for a whole {@code bin/bench} run, so that
 * the {@link GraphBench} forks share it through {@code NEO4J_URI} instead of each starting its own (half a minute
 * each). Writes its Bolt URI to the file named by the first argument once it accepts connections, and runs until the
 * process is stopped.
 */
public final class Neo4jServer {

    private Neo4jServer() {
    }

    /**
     * Starts the server and writes its URI.
     *
     * @param args the file to write the Bolt URI to
     */
    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 1) {
            System.err.println("usage: Neo4jServer URI_FILE");
            System.exit(2);
        }
        Neo4j server = Neo4jBuilders.newInProcessBuilder()
                .withDisabledServer()
                .withConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0)
                .build();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "neo4j-server-stop"));
        // Written whole and renamed, so the launcher never reads half a URI.
        Path file = Path.of(args[0]);
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        Files.writeString(partial, server.boltURI().toString(), StandardCharsets.UTF_8);
        Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        stopped.await();
    }
}
