package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.abort;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.forge.memory.Capability;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every contract shares: a fresh store per test in a directory of its own, a {@link TestClock}, the
 * provider under test opened for project {@value #PROJECT} and session {@value #SESSION}, more providers on
 * the same store for isolation tests, reopening for durability tests, capability gating, and the helpers
 * several contracts use.
 */
public abstract class ContractSupport {

    /** The project id the main provider serves. */
    protected static final String PROJECT = "project-a";
    /** The session id the main provider serves. */
    protected static final String SESSION = "session-1";

    /**
     * The largest value limit the size-limit tests exercise: building a value over a bigger limit would cost
     * more memory and time than the check is worth.
     */
    protected static final long LARGEST_TESTED_VALUE_LIMIT = 16L * 1024 * 1024;

    /**
     * This test's own directory, holding the store directory and nothing else, so that a test can check that
     * nothing is written next to the store; a provider never gets it.
     */
    @TempDir
    private Path workDirectory;

    /** The directory that identifies this test's store: {@code store} inside {@link #workDirectory()}. */
    protected Path storeDirectory;

    /** The clock every provider of this test uses. */
    protected final TestClock clock = new TestClock();

    /** The provider under test, open for {@link #PROJECT} and {@link #SESSION}. */
    protected MemoryProvider provider;

    private final List<MemoryProvider> opened = new ArrayList<>();

    private final Map<Capability, Optional<String>> claimMismatches = new ConcurrentHashMap<>();

    /** Opens the provider under test on the store of {@code context.baseDirectory()}. */
    protected abstract MemoryProvider openProvider(ProviderContext context);

    @BeforeEach
    final void openProviderUnderTest(TestInfo info) throws IOException {
        storeDirectory = Files.createDirectory(workDirectory.resolve("store"));
        provider = open(PROJECT, SESSION);
        Optional<Method> method = info.getTestMethod();
        List<RequiresCapability> required = new ArrayList<>();
        info.getTestClass().ifPresent(c -> required.addAll(List.of(c.getAnnotationsByType(RequiresCapability.class))));
        method.ifPresent(m -> required.addAll(List.of(m.getAnnotationsByType(RequiresCapability.class))));
        for (RequiresCapability requirement : required) {
            assumeTrue(provider.capabilities().contains(requirement.value()),
                    "provider '" + provider.name() + "' does not report " + requirement.value());
            assumeClaimHolds(requirement.value());
        }
        LacksCapability lacking = method.map(m -> m.getAnnotation(LacksCapability.class)).orElse(null);
        if (lacking != null) {
            assumeFalse(provider.capabilities().contains(lacking.value()),
                    "provider '" + provider.name() + "' has " + lacking.value() + ", so it cannot be refused");
            assumeClaimHolds(lacking.value());
        }
    }

    /**
     * Skips the test, naming the failing check, when the provider's claim of {@code capability} disagrees with what
     * it does: the Capabilities contract reports a wrong claim once, and the tests built on the claim do not
     * cascade into failures of their own.
     */
    private void assumeClaimHolds(Capability capability) {
        claimMismatch(capability).ifPresent(mismatch -> abort(CapabilityClaim.skipReason(mismatch, capability)));
    }

    /**
     * Skips the test, naming the failing Capabilities check, unless the provider does what it reports for each of
     * {@code capabilities}: for a contract whose every test takes branches on these claims, as export and import do.
     */
    protected void assumeClaimsHold(Capability... capabilities) {
        for (Capability capability : capabilities) {
            assumeClaimHolds(capability);
        }
    }

    /** The provider under test's claim checked once per test: a search probe must not run in every loop of a test. */
    private Optional<String> claimMismatch(Capability capability) {
        return claimMismatches.computeIfAbsent(capability, c -> CapabilityClaim.mismatch(provider, c));
    }

    @AfterEach
    final void closeProviders() {
        for (MemoryProvider p : opened) {
            p.close();
        }
        opened.clear();
    }

    /** This test's private directory: the parent of {@link #storeDirectory}, which is its only content. */
    protected Path workDirectory() {
        return workDirectory;
    }

    /**
     * The context a provider of this test is opened with: the store directory as base directory, and a forge home
     * inside it, so that no provider under test writes to the user's {@code ~/.forge}.
     */
    protected ProviderContext context(String projectId, String sessionId) {
        return ProviderContext.builder()
                .projectId(projectId)
                .sessionId(sessionId)
                .clock(clock)
                .baseDirectory(storeDirectory)
                .forgeHome(storeDirectory.resolve("forge-home"))
                .registry(ProviderRegistry.of())
                .build();
    }

    /** Opens another provider on this test's store, closed after the test. */
    protected MemoryProvider open(String projectId, String sessionId) {
        MemoryProvider p = openProvider(context(projectId, sessionId));
        opened.add(p);
        return p;
    }

    /**
     * A fresh, empty store of the provider under test in {@code name}, a new directory of this test's, for the same
     * project, session and clock; closed after the test.
     */
    protected MemoryProvider freshStore(String name) throws IOException {
        Path directory = Files.createDirectory(workDirectory().resolve(name));
        MemoryProvider target = openProvider(ProviderContext.builder().projectId(PROJECT).sessionId(SESSION).clock(clock)
                .baseDirectory(directory).forgeHome(directory.resolve("forge-home")).registry(ProviderRegistry.of()).build());
        closeAfterTest(target);
        return target;
    }

    /** Closes {@code p} after the test, with the providers this class opened. */
    protected void closeAfterTest(MemoryProvider p) {
        opened.add(p);
    }

    /** Closes the provider under test and opens it again on the same store, same project and session. */
    protected MemoryProvider reopen() {
        provider.close();
        provider = open(PROJECT, SESSION);
        return provider;
    }

    /**
     * Whether the provider under test reports {@code capability}, for a test that takes a branch on it. When the
     * claim disagrees with what the provider does, the test is skipped instead, naming the Capabilities check that
     * fails for it.
     */
    protected boolean has(Capability capability) {
        assumeClaimHolds(capability);
        return provider.capabilities().contains(capability);
    }

    /**
     * The version a key gets when written again after a delete whose last version was {@code lastVersion}: 1, or
     * with {@link Capability#TOMBSTONES} the number after the tombstone's.
     */
    protected long versionAfterDelete(long lastVersion) {
        return has(Capability.TOMBSTONES) ? lastVersion + 2 : 1;
    }

    /** Stores {@code value} under {@code key} in PROJECT scope. */
    protected MemoryEntry put(String key, String value) {
        return provider.set(key, value, Scope.PROJECT);
    }

    /** Stores an entry with tags and metadata in PROJECT scope. */
    protected MemoryEntry put(String key, String value, List<String> tags, Map<String, ?> metadata) {
        return provider.set(key, value, Scope.PROJECT, tags, metadata);
    }

    /**
     * Writes a GLOBAL key through the provider under test and overwrites it through {@code other}, another project's
     * provider: the overwrite is version 2 of one entry, and the provider under test reads it.
     */
    protected void assertGlobalOverwriteIsShared(MemoryProvider other) {
        provider.set("style", "tabs", Scope.GLOBAL);
        MemoryEntry overwritten = other.set("style", "spaces", Scope.GLOBAL);
        assertThat(overwritten.version()).isEqualTo(2);
        assertThat(provider.get("style", Scope.GLOBAL)).contains(overwritten);
    }

    /** The keys of entries, in order. */
    protected static List<String> keys(List<MemoryEntry> entries) {
        return entries.stream().map(MemoryEntry::key).toList();
    }

    /** Every entry the provider under test can see, in key order. */
    protected List<MemoryEntry> everything() {
        return provider.query(Query.builder().build());
    }

    /** Asserts that what the provider sees is exactly {@code before}: used after calls that must change nothing. */
    protected void assertUnchanged(List<MemoryEntry> before) {
        assertThat(everything()).as("the store must be unchanged").containsExactlyElementsOf(before);
    }

    /**
     * The provider's value limit, or a skipped test (with the reason) when it is over
     * {@link #LARGEST_TESTED_VALUE_LIMIT}: for the tests that build values at or over the limit.
     */
    protected long testableValueLimit() {
        long limit = provider.limits().maxValueBytes();
        assumeTrue(limit <= LARGEST_TESTED_VALUE_LIMIT, "provider '" + provider.name() + "' stores values of up to "
                + limit + " bytes; size-limit tests only build values up to " + LARGEST_TESTED_VALUE_LIMIT + " bytes");
        return limit;
    }

    /** The keys of hits, in order. */
    protected static List<String> hitKeys(List<Hit> hits) {
        return hits.stream().map(h -> h.entry().key()).toList();
    }

    /**
     * The index of the last hit before the first strict drop in score: the hits up to it share the best score.
     * Fails when every hit has the same score, since the caller needs two different scores.
     */
    protected static int firstDrop(List<Hit> hits) {
        for (int i = 0; i + 1 < hits.size(); i++) {
            if (hits.get(i).score() > hits.get(i + 1).score()) {
                return i;
            }
        }
        throw new AssertionError("expected hits with different scores, got " + hits);
    }

    /**
     * Asserts that {@code call} is refused with {@link UnsupportedCapabilityException} for {@code capability},
     * naming the provider under test and the capability in the exception and its message. {@code operation} names
     * the call in the failure message (for example {@code "requireGraph()"}), so that a failure says which
     * operation broke the rule, not only a line number.
     */
    protected void assertRefused(String operation, ThrowingCallable call, Capability capability) {
        String rule = operation + " on provider '" + provider.name() + "', which does not report " + capability
                + ", must throw UnsupportedCapabilityException naming the provider and " + capability;
        assertThatThrownBy(call).as(rule).isInstanceOfSatisfying(UnsupportedCapabilityException.class, e -> {
            assertThat(e.capability()).as(rule + ": its capability()").isEqualTo(capability);
            assertThat(e.provider()).as(rule + ": its provider()").isEqualTo(provider.name());
            assertThat(e.getMessage()).as(rule + ": its message").contains(provider.name()).contains(capability.name());
        });
    }
}
