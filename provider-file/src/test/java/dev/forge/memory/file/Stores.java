package dev.forge.memory.file;

import dev.forge.memory.Scope;
import dev.forge.memory.Keys;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Opening file providers on a test directory, and finding their files. */
final class Stores {

    static final String PROJECT = "project-a";
    static final String SESSION = "session-1";

    private Stores() {
    }

    /**
     * A context whose store is {@code directory} itself (base_path "."), GLOBAL included (global_path = base_path), unless the
     * config names others; its forge home is {@code directory} too, never the user's.
     */
    static ProviderContext context(Path directory, String project, String session, Map<String, ?> config) {
        Map<String, Object> settings = new java.util.LinkedHashMap<>(config);
        settings.putIfAbsent("base_path", ".");
        settings.putIfAbsent("global_path", settings.get("base_path"));
        return context(directory, project, session, directory, settings);
    }

    /**
     * A context of project {@code project} in {@code projectDirectory} with forge home {@code forgeHome} and the given
     * config as it is: GLOBAL goes to the shared store ({@code forgeHome/file} unless global_path says otherwise).
     */
    static ProviderContext sharedContext(Path projectDirectory, String project, Path forgeHome, Map<String, ?> config) {
        return context(projectDirectory, project, SESSION, forgeHome, config);
    }

    private static ProviderContext context(Path directory, String project, String session, Path forgeHome, Map<String, ?> config) {
        return ProviderContext.builder()
                .projectId(project)
                .sessionId(session)
                .clock(Clock.systemUTC())
                .baseDirectory(directory)
                .forgeHome(forgeHome)
                .registry(ProviderRegistry.of(new FileMemoryProviderFactory()))
                .config(ProviderConfig.of(config, "test", "memory.config"))
                .build();
    }

    /** Opens {@link #sharedContext}. */
    static FileMemoryProvider openShared(Path projectDirectory, String project, Path forgeHome, Map<String, ?> config) {
        return (FileMemoryProvider) new FileMemoryProviderFactory().open(sharedContext(projectDirectory, project, forgeHome, config));
    }

    static FileMemoryProvider open(Path directory) {
        return open(directory, Map.of());
    }

    static FileMemoryProvider open(Path directory, Map<String, ?> config) {
        return open(directory, PROJECT, SESSION, config);
    }

    static FileMemoryProvider open(Path directory, String project, String session, Map<String, ?> config) {
        return (FileMemoryProvider) new FileMemoryProviderFactory().open(context(directory, project, session, config));
    }

    /** The directory of {@code scope} for project {@link #PROJECT} and session {@link #SESSION}. */
    static Path scopeDirectory(Path store, Scope scope) {
        return switch (scope) {
            case SESSION -> store.resolve("session").resolve(Keys.toFileName(PROJECT)).resolve(Keys.toFileName(SESSION));
            case PROJECT -> store.resolve("project").resolve(Keys.toFileName(PROJECT));
            case GLOBAL -> store.resolve("global");
        };
    }

    /** The plain JSON entry file of {@code key} in {@code scope}. */
    static Path entryFile(Path store, Scope scope, String key) {
        return scopeDirectory(store, scope).resolve(Keys.toFileName(key) + ".json");
    }

    /** Every regular file under {@code directory}, relative to it, sorted. */
    static List<String> filesUnder(Path directory) {
        try (Stream<Path> walk = Files.walk(directory)) {
            return walk.filter(Files::isRegularFile).map(p -> directory.relativize(p).toString().replace('\\', '/')).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
