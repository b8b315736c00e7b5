package dev.forge.memory.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.Capability;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.UnsupportedCapabilityException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every working method of {@link MemoryProvider}, found by reflection so that a method added to the interface later is
 * covered too, reaches the delegate with the caller's arguments and returns the delegate's answer. The delegate is a
 * recorder, not a backend: what is checked is the forwarding itself (memory-support's tests cannot reach a provider;
 * the decorators built on this class run on real providers in the conformance, sqlite, agent and CLI tests).
 */
class ForwardingMemoryProviderTest {

    /** Built on the provider's other methods, so that a subclass's overrides hold for them too. */
    private static final Set<String> DERIVED = Set.of("requireGraph", "requireTransactions", "requireHistory",
            "requireReindexing", "requireRestoring", "requireFieldIndexing");

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final MemoryEntry ENTRY =
            new MemoryEntry("k", "v", Scope.PROJECT, List.of("t"), Map.of(), NOW, NOW, 1);

    private final List<Object[]> calls = new ArrayList<>();
    private final List<Method> called = new ArrayList<>();

    private static final class Plain extends ForwardingMemoryProvider {
        Plain(MemoryProvider delegate) {
            super(delegate);
        }
    }

    @Test
    void everyWorkingMethodReachesTheDelegateWithItsArgumentsAndAnswer() throws Exception {
        MemoryProvider forwarding = new Plain(recorder());
        for (Method method : MemoryProvider.class.getMethods()) {
            if (Modifier.isStatic(method.getModifiers()) || DERIVED.contains(method.getName()) || isShortSet(method)) {
                continue;
            }
            assertThat(ForwardingMemoryProvider.class.getDeclaredMethod(method.getName(), method.getParameterTypes()))
                    .as("%s is forwarded, not left to the interface's default", method).isNotNull();
            calls.clear();
            called.clear();
            Object[] arguments = Arrays.stream(method.getParameterTypes()).map(ForwardingMemoryProviderTest::sample)
                    .toArray();
            Object answer = method.invoke(forwarding, arguments);

            assertThat(called).as("calls of the delegate for %s", method).containsExactly(method);
            assertThat(calls.get(0)).as("arguments of %s", method).containsExactly(arguments);
            if (method.getReturnType().isPrimitive()) {
                assertThat(answer).as("answer of %s", method).isEqualTo(answerFor(method));
            } else {
                assertThat(answer).as("answer of %s", method).isSameAs(answerFor(method));
            }
        }
    }

    @Test
    void theShortSetGoesThroughTheSubclassesFullSet() {
        List<String> written = new ArrayList<>();
        MemoryProvider counting = new ForwardingMemoryProvider(recorder()) {
            @Override
            public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
                written.add(key);
                return super.set(key, value, scope, tags, metadata);
            }
        };

        assertThat(counting.set("k", "v", Scope.PROJECT)).isSameAs(ENTRY);
        assertThat(written).containsExactly("k");
    }

    @Test
    void aHiddenFacetIsRefusedByItsRequireAccessorNamingTheSubclass() {
        MemoryProvider withoutGraph = new ForwardingMemoryProvider(recorder()) {
            @Override
            public String name() {
                return "without-graph";
            }

            @Override
            public Optional<MemoryGraph> graph() {
                return Optional.empty();
            }
        };

        assertThatThrownBy(withoutGraph::requireGraph).isInstanceOfSatisfying(UnsupportedCapabilityException.class,
                e -> {
                    assertThat(e.provider()).isEqualTo("without-graph");
                    assertThat(e.capability()).isEqualTo(Capability.GRAPH);
                });
    }

    private static boolean isShortSet(Method method) {
        return method.getName().equals("set") && method.getParameterCount() == 3;
    }

    private MemoryProvider recorder() {
        return (MemoryProvider) Proxy.newProxyInstance(MemoryProvider.class.getClassLoader(),
                new Class<?>[] {MemoryProvider.class}, (proxy, method, args) -> {
                    if (method.isDefault() && (DERIVED.contains(method.getName()) || isShortSet(method))) {
                        return InvocationHandler.invokeDefault(proxy, method, args);
                    }
                    called.add(method);
                    calls.add(args == null ? new Object[0] : args);
                    return answerFor(method);
                });
    }

    // One fixed answer per return type, so that the test can tell the delegate's answer by identity.
    private static final Map<Class<?>, Object> ANSWERS = Map.of(
            String.class, "delegate",
            MemoryEntry.class, ENTRY,
            Optional.class, Optional.of(ENTRY),
            List.class, List.of(new StoreProblem("here", "broken")),
            Set.class, Set.of(Capability.GRAPH),
            Limits.class, Limits.DEFAULT,
            int.class, 7,  // no default answer is 7
            boolean.class, true);

    private static Object answerFor(Method method) {
        return method.getReturnType() == void.class ? null : ANSWERS.get(method.getReturnType());
    }

    private static Object sample(Class<?> type) {
        if (type == String.class) {
            return "some-key";
        } else if (type == Scope.class) {
            return Scope.GLOBAL;
        } else if (type == List.class) {
            return List.of("tag");
        } else if (type == Map.class) {
            return Map.of("field", 1);
        } else if (type == Query.class) {
            return Query.of("*", Scope.PROJECT);
        } else if (type == SearchRequest.class) {
            return SearchRequest.keyword("text");
        }
        throw new AssertionError("no sample argument of " + type + ": add one");
    }
}
