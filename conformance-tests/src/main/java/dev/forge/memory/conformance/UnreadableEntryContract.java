package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.conformance.UnreadableEntryScenario.Damage;
import dev.forge.memory.conformance.UnreadableEntryScenario.Figures;
import dev.forge.memory.conformance.UnreadableEntryScenario.Plan;
import dev.forge.memory.conformance.UnreadableEntryScenario.WriteRule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * For providers that keep entries in files: the file that holds a key's current version cannot be read (a symbolic
 * link loop or a directory in its place, a cut, bytes that are not UTF-8, no read permission). Then:
 * <ol type="a">
 *   <li>the key is never served as if an older version were current: {@code get} and {@code history} fail with
 *       {@link dev.forge.memory.CorruptEntryException} naming the file, and a search does not find the older version;</li>
 *   <li>every other key reads back exactly, and is listed, found and exported;</li>
 *   <li>{@code doctor()} names the file;</li>
 *   <li>a write to the key is refused with {@code CorruptEntryException} naming the file and changes nothing, where the
 *       provider keeps chains of versions ({@link WriteRule#REFUSED}), or else moves the file aside within the store,
 *       where {@code doctor()} lists it ({@link WriteRule#MOVES_ASIDE});</li>
 *   <li>once the file is repaired the acknowledged version is current again and {@code doctor()} is clean; once it is
 *       moved away, writes work.</li>
 * </ol>
 * Each file that holds the current version is damaged in turn (a layered layout's document and its version file).
 * {@link Damage#NO_READ_PERMISSION} runs in a child JVM that permissions apply to ({@link UnprivilegedJvm}); it is
 * skipped, with the reason, where that cannot be done.
 */
@Tag(Reliability.TAG)
public abstract class UnreadableEntryContract {

    /** Holds the store and the directory a damaged file is moved to by hand. */
    @TempDir
    protected Path work;

    /** The factory name of the provider under test, as {@link dev.forge.memory.spi.ProviderRegistry} finds it. */
    protected abstract String providerName();

    /** The provider's config block for a store in {@code store}, as YAML would give it. */
    protected abstract Map<String, Object> config(Path store);

    /** What a write to a key whose current file cannot be read does; {@link WriteRule#REFUSED} unless overridden. */
    protected WriteRule writeRule() {
        return WriteRule.REFUSED;
    }

    /** What every key of the scenario starts with, such as a layered layout's document directory; empty by default. */
    protected String keyPrefix() {
        return "";
    }

    /** The provider's name in the reliability figures; the factory name unless overridden. */
    protected String reportName() {
        return providerName();
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void an_unreadable_current_file_is_reported_never_replaced_by_an_older_version_and_spares_every_other_key(Damage damage)
            throws Exception {
        Path store = Files.createDirectory(work.resolve("store"));
        Path aside = work.resolve("aside");
        Plan plan = new Plan(providerName(), config(store), keyPrefix(), damage, writeRule(), reportName());
        Figures figures = damage == Damage.NO_READ_PERMISSION ? inChildJvm(plan, store, aside)
                : UnreadableEntryScenario.run(plan, store, aside);
        Reliability.report("faults", reportName(), "unreadable current files checked", figures.filesDamaged());
        if (writeRule() == WriteRule.REFUSED) {
            Reliability.report("faults", reportName(), "writes over an unreadable file refused", figures.writesRefused());
        } else {
            Reliability.report("faults", reportName(), "unreadable files moved aside by a write", figures.writesMovedAside());
        }
    }

    private static Figures inChildJvm(Plan plan, Path store, Path aside) throws Exception {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("provider", plan.provider());
        fields.put("config", plan.config());
        fields.put("keyPrefix", plan.keyPrefix());
        fields.put("damage", plan.damage().name());
        fields.put("rule", plan.rule().name());
        fields.put("reportName", plan.reportName());
        UnprivilegedJvm.Result result = UnprivilegedJvm.run(store.getParent(), UnreadableEntryScenario.class,
                store.toString(), aside.toString(), UnreadableEntryScenario.JSON.writeValueAsString(fields));
        assertThat(result.exitCode()).as("the scenario in a child JVM failed:\n" + result.err()).isZero();
        String[] lines = result.out().strip().split("\n");
        return UnreadableEntryScenario.JSON.readValue(lines[lines.length - 1], Figures.class);
    }
}
