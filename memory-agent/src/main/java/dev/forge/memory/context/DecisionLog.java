package dev.forge.memory.context;

import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The decision-log pattern: architectural decisions with their rationale and the alternatives weighed, in PROJECT
 * scope under {@code decision:<epoch milliseconds>}, tagged {@code decision} and {@code architecture}.
 *
 * <p>The value is readable markdown ({@code ## Decision}, {@code ## Rationale}, {@code ## Alternatives considered});
 * the three parts are also kept in metadata ({@code decision}, {@code rationale}, {@code alternatives}) so that
 * {@link #read} gives them back typed.
 */
public final class DecisionLog {

    /** The key prefix of decisions. */
    public static final String PREFIX = "decision:";
    /** The tags every decision carries. */
    public static final List<String> TAGS = List.of("decision", "architecture");

    private final MemoryProvider provider;
    private final Clock clock;

    private DecisionLog(MemoryProvider provider, Clock clock) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The decision log of {@code provider}, keyed by the system clock. */
    public static DecisionLog of(MemoryProvider provider) {
        return of(provider, Clock.systemUTC());
    }

    /** The decision log of {@code provider}, keyed by {@code clock}. */
    public static DecisionLog of(MemoryProvider provider, Clock clock) {
        return new DecisionLog(provider, clock);
    }

    /**
     * Records a decision under {@code decision:<now in epoch milliseconds>}; when that key is taken (two decisions in
     * one millisecond), {@code -2}, {@code -3}... is appended. Not atomic across processes.
     *
     * @throws InvalidRequestException if the decision or rationale is blank, or an alternative is
     */
    public Decision record(String decision, String rationale, List<String> alternatives) {
        requireText(decision, "decision");
        requireText(rationale, "rationale");
        for (String alternative : Objects.requireNonNull(alternatives, "alternatives")) {
            requireText(alternative, "alternative");
        }
        String base = PREFIX + clock.millis();
        String key = base;
        for (int n = 2; provider.get(key, Scope.PROJECT).isPresent(); n++) {
            key = base + "-" + n;
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("decision", decision);
        metadata.put("rationale", rationale);
        metadata.put("alternatives", List.copyOf(alternatives));
        MemoryEntry entry = provider.set(key, markdown(decision, rationale, alternatives), Scope.PROJECT, TAGS, metadata);
        return read(entry).orElseThrow();
    }

    /** The decisions, most recent first; at most {@code limit}. */
    public List<Decision> recent(int limit) {
        List<Decision> decisions = new ArrayList<>();
        for (MemoryEntry entry : provider.query(Query.builder().pattern(PREFIX + "*").scopes(Scope.PROJECT)
                .order(Query.Order.UPDATED_DESC).limit(limit).build())) {
            read(entry).ifPresent(decisions::add);
        }
        return decisions;
    }

    /** The value a decision is stored as. */
    public static String markdown(String decision, String rationale, List<String> alternatives) {
        StringBuilder text = new StringBuilder("## Decision\n\n").append(decision.strip())
                .append("\n\n## Rationale\n\n").append(rationale.strip())
                .append("\n\n## Alternatives considered\n\n");
        if (alternatives.isEmpty()) {
            text.append("- none\n");
        }
        for (String alternative : alternatives) {
            text.append("- ").append(alternative.strip().replace("\n", "\n  ")).append('\n');
        }
        return text.toString();
    }

    /** The decision an entry holds, if it is one this log wrote (a {@code decision:} key with the three parts in metadata). */
    public static Optional<Decision> read(MemoryEntry entry) {
        Map<String, Object> metadata = entry.metadata();
        if (!entry.key().startsWith(PREFIX) || !(metadata.get("decision") instanceof String decision)
                || !(metadata.get("rationale") instanceof String rationale)
                || !(metadata.get("alternatives") instanceof List<?> list)
                || !list.stream().allMatch(String.class::isInstance)) {
            return Optional.empty();
        }
        List<String> alternatives = list.stream().map(String.class::cast).toList();
        return Optional.of(new Decision(entry.key(), decision, rationale, alternatives, entry.createdAt()));
    }

    private static void requireText(String text, String what) {
        if (Objects.requireNonNull(text, what).isBlank()) {
            throw new InvalidRequestException("A decision's " + what + " must not be blank.");
        }
    }

    /**
     * A recorded decision.
     *
     * @param key          its key
     * @param decision     what was decided
     * @param rationale    why
     * @param alternatives what else was considered
     * @param recordedAt   when it was recorded
     */
    public record Decision(String key, String decision, String rationale, List<String> alternatives, Instant recordedAt) {

        /** Copies the alternatives. */
        public Decision {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(decision, "decision");
            Objects.requireNonNull(rationale, "rationale");
            alternatives = List.copyOf(alternatives);
            Objects.requireNonNull(recordedAt, "recordedAt");
        }
    }
}
