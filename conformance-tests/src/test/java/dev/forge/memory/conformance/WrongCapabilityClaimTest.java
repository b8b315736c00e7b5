package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.forge.memory.Capability;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.inmemory.InMemoryMemoryProvider;
import dev.forge.memory.inmemory.InMemoryStore;
import dev.forge.memory.spi.ProviderContext;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * One wrong capability claim is one failure of the whole suite: the Capabilities check for that capability. The tests
 * that depend on the capability are skipped, and their reason names the check. Each case runs the whole suite
 * against the in-memory provider with one wrong claim.
 */
class WrongCapabilityClaimTest {

    @Test
    void a_reported_capability_whose_facet_is_empty_fails_only_its_check() {
        assertOneFailure(GraphReportedWithoutFacet.class, Capability.GRAPH);
    }

    @Test
    void an_offered_facet_that_is_not_reported_fails_only_its_check() {
        assertOneFailure(HistoryOfferedButNotReported.class, Capability.HISTORY);
    }

    @Test
    void a_reported_search_that_is_refused_fails_only_its_check() {
        assertOneFailure(SemanticSearchReportedButRefused.class, Capability.SEMANTIC_SEARCH);
    }

    @Test
    void an_answered_search_that_is_not_reported_fails_only_its_check() {
        assertOneFailure(KeywordSearchAnsweredButNotReported.class, Capability.KEYWORD_SEARCH);
    }

    @Test
    void every_capability_check_named_in_skip_reasons_is_a_test_of_the_capability_contract() {
        List<String> tests = Arrays.stream(CapabilityContract.class.getDeclaredMethods())
                .filter(m -> m.isAnnotationPresent(Test.class)).map(Method::getName).toList();
        assertThat(tests).containsAll(CapabilityClaim.CHECKS.values());
    }

    private static void assertOneFailure(Class<?> suite, Capability capability) {
        Events tests = EngineTestKit.engine("junit-jupiter").selectors(selectClass(suite)).execute().testEvents();
        String check = CapabilityClaim.CHECKS.get(capability);
        List<String> failed = tests.failed().stream().map(WrongCapabilityClaimTest::methodName).toList();
        assertThat(failed).as("failed tests of %s", suite.getSimpleName()).containsExactly(check);
        assertThat(tests.failed().stream().map(WrongCapabilityClaimTest::failure).findFirst().orElseThrow())
                .as("the check's failure message").contains(capability.name());
        List<String> skippedForTheClaim = tests.aborted().stream().map(WrongCapabilityClaimTest::failure)
                .filter(reason -> reason.contains("Capabilities > " + check)).toList();
        assertThat(skippedForTheClaim).as("tests skipped because of the wrong %s claim, naming the check", capability)
                .isNotEmpty();
    }

    private static String methodName(Event event) {
        return event.getTestDescriptor().getSource().filter(MethodSource.class::isInstance)
                .map(source -> ((MethodSource) source).getMethodName()).orElse(event.getTestDescriptor().getDisplayName());
    }

    private static String failure(Event event) {
        return event.getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable)
                .map(Throwable::getMessage).orElse("");
    }

    /** The whole suite on in-memory stores, one per store directory, each provider misreporting the same way. */
    abstract static class MisreportingConformance extends MemoryProviderConformance {
        private final Map<Path, InMemoryStore> stores = new ConcurrentHashMap<>();

        abstract MemoryProvider misreport(MemoryProvider provider);

        /** The in-memory stores here are keyed by store directory, in this JVM: nothing is kept under the forge home. */
        @Override
        protected boolean sharesGlobalThroughForgeHome() {
            return false;
        }

        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            InMemoryStore store = stores.computeIfAbsent(context.baseDirectory(), dir -> new InMemoryStore());
            return misreport(new InMemoryMemoryProvider(store, context, java.util.Optional.empty(),
                    InMemorySettings.searchFields(context)));
        }
    }

    static class GraphReportedWithoutFacet extends MisreportingConformance {
        @Override
        MemoryProvider misreport(MemoryProvider provider) {
            return new MisreportingProvider(provider, null, null, Capability.GRAPH);
        }
    }

    static class HistoryOfferedButNotReported extends MisreportingConformance {
        @Override
        MemoryProvider misreport(MemoryProvider provider) {
            return new MisreportingProvider(provider, null, Capability.HISTORY, null);
        }
    }

    static class SemanticSearchReportedButRefused extends MisreportingConformance {
        @Override
        MemoryProvider misreport(MemoryProvider provider) {
            return new MisreportingProvider(provider, Capability.SEMANTIC_SEARCH, null, null);
        }
    }

    static class KeywordSearchAnsweredButNotReported extends MisreportingConformance {
        @Override
        MemoryProvider misreport(MemoryProvider provider) {
            return new MisreportingProvider(provider, null, Capability.KEYWORD_SEARCH, null);
        }
    }
}
