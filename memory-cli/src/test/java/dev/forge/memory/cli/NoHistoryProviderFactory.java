package dev.forge.memory.cli;

import dev.forge.memory.Capability;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Restoring;
import dev.forge.memory.Transactions;
import dev.forge.memory.VersionHistory;
import dev.forge.memory.inmemory.InMemoryMemoryProvider;
import dev.forge.memory.inmemory.InMemoryStore;
import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.support.ForwardingMemoryProvider;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * A provider without {@link Capability#HISTORY}, for the "capability missing" cases of history and purge: every
 * provider the tool bundles keeps history. It is not on the class path's service list (that would change every
 * {@code providers} listing); a test drops {@link #pluginJar a jar naming it} into a plugin folder, and the plugin
 * class loader takes the class itself from the host, as it does for all of {@code dev.forge.memory}.
 */
public final class NoHistoryProviderFactory implements MemoryProviderFactory {

    /** The name it is selected by. */
    static final String NAME = "no-history";

    /** Does nothing. */
    public NoHistoryProviderFactory() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "A test provider that keeps no history.";
    }

    @Override
    public Set<Capability> capabilities() {
        return Set.of(Capability.KEYWORD_SEARCH);
    }

    @Override
    public MemoryProvider open(ProviderContext context) {
        return new NoHistory(new InMemoryMemoryProvider(new InMemoryStore(), context));
    }

    /** Writes a plugin jar into {@code folder} holding only the service file that names this factory. */
    static Path pluginJar(Path folder) {
        try {
            Files.createDirectories(folder);
            Path jar = folder.resolve("no-history.jar");
            try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
                out.putNextEntry(new JarEntry("META-INF/services/" + MemoryProviderFactory.class.getName()));
                out.write((NoHistoryProviderFactory.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The in-memory provider's entries and keyword search; no graph, transactions, history or restores. */
    private static final class NoHistory extends ForwardingMemoryProvider {
        NoHistory(InMemoryMemoryProvider delegate) {
            super(delegate);
        }

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Set<Capability> capabilities() {
            return Set.of(Capability.KEYWORD_SEARCH);
        }

        @Override
        public Optional<MemoryGraph> graph() {
            return Optional.empty();
        }

        @Override
        public Optional<Transactions> transactions() {
            return Optional.empty();
        }

        @Override
        public Optional<VersionHistory> history() {
            return Optional.empty();
        }

        @Override
        public Optional<Restoring> restoring() {
            return Optional.empty();
        }
    }
}
