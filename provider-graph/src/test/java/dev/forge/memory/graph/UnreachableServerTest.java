package dev.forge.memory.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;

/** A server that is not there fails the open quickly, naming the URL, instead of hanging. */
class UnreachableServerTest {

    @TempDir
    Path directory;

    @Test
    void closed_port_fails_with_backend_unavailable_naming_the_url_within_the_connect_timeout() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String url = "bolt://127.0.0.1:" + port;
        ProviderContext context = ProviderContext.builder().projectId("p").sessionId("s").baseDirectory(directory)
                .forgeHome(directory.resolve("forge-home")).registry(ProviderRegistry.of())
                .config(ProviderConfig.of(Map.of("url", url, "connect_timeout", "2s"), "test", "memory.config")).build();
        long started = System.nanoTime();
        assertThatThrownBy(() -> new GraphMemoryProviderFactory().open(context))
                .isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining(url);
        assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(5_000);
    }
}
