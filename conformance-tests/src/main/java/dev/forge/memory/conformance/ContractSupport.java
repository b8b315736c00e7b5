package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.forge.memory.Capability;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every contract shares: a fresh store per test in a temporary directory, a {@link TestClock}, the
 * provider under test opened for project {@value #PROJECT} and session {@value #SESSION}, more providers on
 * the same store for isolation tests, reopening for durability tests, and capability gating.
 */
public abstract class ContractSupport {

    /** The project id the main provider serves. */
    protected static final String PROJECT = "project-a";
    /** The session id the main provider serves. */
    protected static final String SESSION = "session-1";

    /** The directory that identifies this test's store. */
    @TempDir
    protected Path storeDirectory;

    /** The clock every provider of this test uses. */
    protected final TestClock clock = new TestClock();

    /** The provider under test, open for {@link #PROJECT} and {@link #SESSION}. */
    protected MemoryProvider provider;

    private final List<MemoryProvider> opened = new ArrayList<>();

    /** Opens the provider under test on the store of {@code context.baseDirectory()}. */
    protected abstract MemoryProvider openProvider(ProviderContext context);

    @BeforeEach
    final void openProviderUnderTest(TestInfo info) {
        provider = open(PROJECT, SESSION);
        Optional<Method> method = info.getTestMethod();
        List<RequiresCapability> required = new ArrayList<>();
        info.getTestClass().ifPresent(c -> required.addAll(List.of(c.getAnnotationsByType(RequiresCapability.class))));
        method.ifPresent(m -> required.addAll(List.of(m.getAnnotationsByType(RequiresCapability.class))));
        for (RequiresCapability requirement : required) {
            assumeTrue(provider.capabilities().contains(requirement.value()),
                    "provider '" + provider.name() + "' does not report " + requirement.value());
        }
        LacksCapability lacking = method.map(m -> m.getAnnotation(LacksCapability.class)).orElse(null);
        if (lacking != null) {
            assumeFalse(provider.capabilities().contains(lacking.value()),
                    "provider '" + provider.name() + "' has " + lacking.value() + ", so it cannot be refused");
        }
    }

    @AfterEach
    final void closeProviders() {
        for (MemoryProvider p : opened) {
            p.close();
        }
        opened.clear();
    }

    /** The context a provider of this test is opened with. */
    protected ProviderContext context(String projectId, String sessionId) {
        return ProviderContext.builder()
                .projectId(projectId)
                .sessionId(sessionId)
                .clock(clock)
                .baseDirectory(storeDirectory)
                .registry(ProviderRegistry.of())
                .build();
    }

    /** Opens another provider on this test's store, closed after the test. */
    protected MemoryProvider open(String projectId, String sessionId) {
        MemoryProvider p = openProvider(context(projectId, sessionId));
        opened.add(p);
        return p;
    }

    /** Closes the provider under test and opens it again on the same store, same project and session. */
    protected MemoryProvider reopen() {
        provider.close();
        provider = open(PROJECT, SESSION);
        return provider;
    }

    /** Whether the provider under test reports {@code capability}. */
    protected boolean has(Capability capability) {
        return provider.capabilities().contains(capability);
    }

    /** Stores {@code value} under {@code key} in PROJECT scope. */
    protected MemoryEntry put(String key, String value) {
        return provider.set(key, value, Scope.PROJECT);
    }

    /** Stores an entry with tags and metadata in PROJECT scope. */
    protected MemoryEntry put(String key, String value, List<String> tags, Map<String, ?> metadata) {
        return provider.set(key, value, Scope.PROJECT, tags, metadata);
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
}
