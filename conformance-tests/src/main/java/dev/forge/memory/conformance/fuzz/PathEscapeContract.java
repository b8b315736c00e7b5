package dev.forge.memory.conformance.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ContractSupport;
import dev.forge.memory.conformance.Reliability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * For providers whose keys become file names: {@code Reliability.count("paths", 500, 100000)} hostile keys (500 in
 * the short form: ten thousand writes cost about 40 s per store on the build machine, over the build's budget) (relative
 * and absolute path escapes, drive letters, UNC names, encoded dots, control characters) never make a file outside
 * the store directory, and each one either round-trips exactly or is refused with {@link InvalidKeyException}.
 * After each batch the store directory's parent (the test's own directory) is walked: it must hold the store
 * directory and nothing else.
 */
@Tag(Reliability.TAG)
public abstract class PathEscapeContract extends ContractSupport {

    private static final int BATCH = 250;

    /** The provider's name in the reliability figures, such as {@code "markdown-layered"}. */
    protected abstract String providerName();

    @Test
    void hostile_keys_never_write_outside_the_store_and_round_trip_or_are_refused_as_invalid_keys() throws IOException {
        long seed = FuzzInputs.seed();
        int attempts = Reliability.count("paths", 500, 100_000);
        String outside = workDirectory().resolve("escaped").toAbsolutePath().toString();
        Gen<String> keys = FuzzInputs.pathLikeKeys(outside);
        List<String> batch = new ArrayList<>();
        Map<String, String> stored = new HashMap<>();
        long[] refused = {0};
        FuzzInputs.sample(keys, seed, attempts, key -> {
            batch.add(key);
            String value = "v" + stored.size();
            try {
                MemoryEntry entry = provider.set(key, value, Scope.PROJECT);
                assertThat(entry.key()).isEqualTo(key);
                stored.put(key, value);
            } catch (InvalidKeyException e) {
                refused[0]++;
            } catch (RuntimeException | Error e) {
                fail("key '" + key.replace("\u0000", "\\0") + "' threw " + e + " (seed " + seed + ")", e);
            }
            if (batch.size() == BATCH) {
                checkBatch(batch, stored, seed);
                batch.clear();
            }
        });
        checkBatch(batch, stored, seed);
        Reliability.report("paths", providerName(), "hostile keys tried", attempts);
        Reliability.report("paths", providerName(), "keys refused as invalid", refused[0]);
        assertThat(stored).as("most path-like keys are valid keys and must be stored").isNotEmpty();
    }

    private void checkBatch(List<String> batch, Map<String, String> stored, long seed) {
        try (Stream<Path> files = Files.walk(workDirectory())) {
            List<Path> escaped = files.filter(p -> !p.equals(workDirectory()) && !p.startsWith(storeDirectory)).toList();
            assertThat(escaped).as("files outside the store directory after keys like " + batch.stream().limit(5).toList()
                    + " (seed " + seed + ")").isEmpty();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        for (String key : batch) {
            String value = stored.get(key);
            if (value != null) {
                assertThat(provider.get(key, Scope.PROJECT)).as("get of '" + key + "'").get()
                        .extracting(MemoryEntry::value).isEqualTo(value);
            }
        }
    }
}
