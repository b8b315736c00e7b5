package dev.forge.memory.cli;

import dev.forge.memory.Capability;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.inmemory.InMemoryMemoryProvider;
import dev.forge.memory.inmemory.InMemoryStore;
import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.ProviderContext;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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

    /** The in-memory provider's entries and keyword search; no graph, transactions or history. */
    private record NoHistory(InMemoryMemoryProvider delegate) implements MemoryProvider {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Optional<MemoryEntry> get(String key, Scope scope) {
            return delegate.get(key, scope);
        }

        @Override
        public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
            return delegate.set(key, value, scope, tags, metadata);
        }

        @Override
        public List<MemoryEntry> query(Query query) {
            return delegate.query(query);
        }

        @Override
        public List<Hit> search(SearchRequest request) {
            return delegate.search(request);
        }

        @Override
        public boolean delete(String key, Scope scope) {
            return delegate.delete(key, scope);
        }

        @Override
        public int clear(Scope scope) {
            return delegate.clear(scope);
        }

        @Override
        public Set<Capability> capabilities() {
            return Set.of(Capability.KEYWORD_SEARCH);
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}
