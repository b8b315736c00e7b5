package dev.forge.memory.consolidation;

import dev.forge.memory.ConflictException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.Transactions;
import dev.forge.memory.consolidation.ConsolidationPlan.Merge;
import dev.forge.memory.consolidation.ConsolidationReport.Group;
import dev.forge.memory.consolidation.ConsolidationReport.Outcome;
import dev.forge.memory.consolidation.internal.MergeWrite;
import dev.forge.memory.context.TokenEstimator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Merges duplicate memories of some scopes once they grow past a threshold, on any provider, losing nothing.
 *
 * <pre>{@code
 * ConsolidationReport report = Consolidation.builder().provider(memories).build().run();
 * }</pre>
 *
 * <p>A run:
 * <ol>
 *   <li>reads every memory of the scopes (default PROJECT) but the plugin memory documents (keys that are
 *       {@link dev.forge.memory.support.LayeredKey layered keys}: two projects' documents made from one template are
 *       alike and must stay apart; their growth is {@link dev.forge.memory.lifecycle.PluginMemory#prune pruning}'s
 *       business), and estimates the size of their values; at or under the
 *       threshold (default {@value #DEFAULT_THRESHOLD} tokens) it stops: {@link Outcome#BELOW_THRESHOLD};</li>
 *   <li>asks the {@link Consolidator} for a plan per scope; any exception it throws ends the run:
 *       {@link Outcome#REJECTED}, nothing written;</li>
 *   <li>checks every plan before writing anything: each group has two or more distinct keys, all of them memories read
 *       in that scope, none in two groups, the kept key among them, a non-blank value; one broken group rejects the
 *       whole run. A group whose merged memory would break the provider's {@link MemoryProvider#limits() limits} is
 *       skipped and reported, never cut;</li>
 *   <li>checks that the memories of the groups are unchanged since they were read (same version and update time, same
 *       content); otherwise it rejects the run: run it again;</li>
 *   <li>for each group, writes the kept key first with the merged value, the union of the group's tags, and metadata
 *       {@code supersedes}: one record per memory it replaces ({@code key}, {@code value}, {@code tags},
 *       {@code metadata}, {@code created_at}, {@code updated_at}, {@code version}; also the kept key's own earlier
 *       state when the merged value differs from it; records it already had are carried over), so that even a provider
 *       without history keeps everything; then deletes the other keys. With {@link MemoryProvider#transactions()} all
 *       of it is one transaction (and step 4 is checked again inside it).</li>
 * </ol>
 * A dry run does steps 1 to 4 and reports {@link Outcome#PLANNED}.
 */
public final class Consolidation {

    private static final Logger LOG = LoggerFactory.getLogger(Consolidation.class);

    /** The default threshold, in estimated tokens. */
    public static final int DEFAULT_THRESHOLD = 5000;

    private final MemoryProvider provider;
    private final Set<Scope> scopes;
    private final Consolidator consolidator;
    private final int threshold;
    private final TokenEstimator estimator;
    private final boolean dryRun;

    private Consolidation(Builder builder) {
        this.provider = Objects.requireNonNull(builder.provider, "provider: say which provider to consolidate with provider(...)");
        this.scopes = EnumSet.copyOf(builder.scopes);
        this.consolidator = builder.consolidator;
        this.threshold = builder.threshold;
        this.estimator = builder.estimator;
        this.dryRun = builder.dryRun;
    }

    /** A builder: scope PROJECT, the {@link DeterministicConsolidator}, threshold {@value #DEFAULT_THRESHOLD}, not a dry run. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Runs once. Failures of the consolidator, of the plan and of a transaction are reported, not thrown.
     *
     * @throws MemoryException if the memories cannot be read in the first place
     */
    public ConsolidationReport run() {
        Map<Scope, Map<String, MemoryEntry>> read = new LinkedHashMap<>();
        long tokens = 0;
        for (Scope scope : scopes) {
            Map<String, MemoryEntry> byKey = new LinkedHashMap<>();
            for (MemoryEntry entry : provider.query(Query.builder().scopes(scope).build())) {
                if (dev.forge.memory.support.LayeredKey.parse(entry.key()).isPresent()) {
                    continue;
                }
                byKey.put(entry.key(), entry);
                tokens += estimator.estimate(entry.value());
            }
            read.put(scope, byKey);
        }
        if (tokens <= threshold) {
            return report(Outcome.BELOW_THRESHOLD, "The memories hold about " + tokens + " tokens, not more than the "
                    + "threshold of " + threshold + ".", tokens, List.of(), List.of(), List.of(), List.of());
        }
        List<MergeWrite> writes = new ArrayList<>();
        List<Group> skipped = new ArrayList<>();
        for (Map.Entry<Scope, Map<String, MemoryEntry>> scope : read.entrySet()) {
            Map<String, MemoryEntry> byKey = scope.getValue();
            if (byKey.size() < 2) {
                continue;
            }
            ConsolidationPlan plan;
            try {
                plan = Objects.requireNonNull(consolidator.plan(List.copyOf(byKey.values())), "plan");
            } catch (RuntimeException e) {
                LOG.warn("Consolidator {} failed on {} scope; nothing written: {}", consolidator.name(), scope.getKey().id(), e.toString());
                return rejected(tokens, "The " + consolidator.name() + " consolidator failed on the " + scope.getKey().id()
                        + " memories: " + e.getMessage());
            }
            Optional<String> problem = MergeWrite.problem(plan.merges(), byKey, new HashSet<>());
            if (problem.isPresent()) {
                LOG.warn("Consolidator {} gave an invalid plan for {} scope; nothing written: {}", consolidator.name(),
                        scope.getKey().id(), problem.get());
                return rejected(tokens, "The " + consolidator.name() + " consolidator's plan for the "
                        + scope.getKey().id() + " memories is invalid: " + problem.get() + ".");
            }
            for (Merge merge : plan.merges()) {
                MergeWrite.Either write = MergeWrite.of(scope.getKey(), merge, byKey, provider.limits());
                if (write.write() != null) {
                    writes.add(write.write());
                } else {
                    skipped.add(new Group(scope.getKey(), merge.keep(), merge.removed(), write.skipped()));
                }
            }
        }
        List<Group> groups = writes.stream().map(w -> new Group(w.scope(), w.kept().key(),
                w.removed().stream().map(MemoryEntry::key).toList(), "")).toList();
        if (writes.isEmpty()) {
            return report(Outcome.NOTHING_TO_MERGE, skipped.isEmpty() ? "Nothing to merge." : "Every group had to be "
                    + "skipped.", tokens, List.of(), skipped, List.of(), List.of());
        }
        Optional<String> changed = changedSinceRead(writes, (key, scope) -> provider.get(key, scope));
        if (changed.isPresent()) {
            return rejected(tokens, changed.get());
        }
        if (dryRun) {
            return report(Outcome.PLANNED, "Dry run: " + groups.size() + (groups.size() == 1 ? " group" : " groups")
                    + " would be merged.", tokens, groups, skipped, List.of(), List.of());
        }
        Optional<Transactions> transactions = provider.transactions();
        return transactions.isPresent() ? inTransaction(transactions.get(), writes, groups, skipped, tokens)
                : oneByOne(writes, skipped, tokens);
    }

    private ConsolidationReport inTransaction(Transactions transactions, List<MergeWrite> writes, List<Group> groups,
                                              List<Group> skipped, long tokens) {
        List<EntryRef> removed = new ArrayList<>();
        try (MemoryTransaction transaction = transactions.begin()) {
            Optional<String> changed = changedSinceRead(writes, transaction::get);
            if (changed.isPresent()) {
                return rejected(tokens, changed.get());
            }
            for (MergeWrite write : writes) {
                transaction.set(write.kept().key(), write.value(), write.scope(), write.tags(), write.metadata());
                for (MemoryEntry entry : write.removed()) {
                    if (transaction.delete(entry.key(), entry.scope())) {
                        removed.add(entry.ref());
                    }
                }
            }
            transaction.commit();
        } catch (ConflictException e) {
            return rejected(tokens, "Another writer changed these memories during consolidation; nothing was "
                    + "written. Run it again. (" + e.getMessage() + ")");
        } catch (RuntimeException e) {
            LOG.warn("Consolidation transaction failed and was rolled back: {}", e.toString());
            return rejected(tokens, "Writing the merged memories failed and was rolled back: " + e.getMessage());
        }
        return report(Outcome.MERGED, "Merged " + groups.size() + (groups.size() == 1 ? " group" : " groups")
                + " in one transaction.", tokens, groups, skipped, removed, List.of());
    }

    /** Without transactions: each kept memory, with its records, is written before the keys it replaces are deleted. */
    private ConsolidationReport oneByOne(List<MergeWrite> writes, List<Group> skipped, long tokens) {
        List<Group> merged = new ArrayList<>();
        List<EntryRef> removed = new ArrayList<>();
        boolean wrote = false;
        for (MergeWrite write : writes) {
            // Without a transaction another writer may come in between: each group is checked again just before it
            // is written, so a change made meanwhile is never merged away (what is already merged stays merged).
            Optional<String> changed = changedSinceRead(List.of(write), (key, scope) -> provider.get(key, scope));
            if (changed.isPresent()) {
                String failure = changed.get().replace("nothing was written", wrote ? "the groups before it were "
                        + "merged, the rest not" : "nothing was written");
                return report(wrote ? Outcome.PARTIAL : Outcome.REJECTED, failure, tokens, merged, skipped, removed,
                        List.of(failure));
            }
            try {
                provider.set(write.kept().key(), write.value(), write.scope(), write.tags(), write.metadata());
                wrote = true;
                List<String> gone = new ArrayList<>();
                for (MemoryEntry entry : write.removed()) {
                    if (provider.delete(entry.key(), entry.scope())) {
                        removed.add(entry.ref());
                    }
                    gone.add(entry.key());
                }
                merged.add(new Group(write.scope(), write.kept().key(), gone, ""));
            } catch (RuntimeException e) {
                LOG.warn("Consolidation stopped at '{}': {}", write.kept().key(), e.toString());
                String failure = "Merging into '" + write.kept().key() + "' (" + write.scope().id() + ") failed: "
                        + e.getMessage() + (wrote ? " The kept memory already records what it replaces; nothing is "
                        + "lost. Run again." : "");
                return report(wrote ? Outcome.PARTIAL : Outcome.REJECTED, failure, tokens, merged, skipped, removed,
                        List.of(failure));
            }
        }
        return report(Outcome.MERGED, "Merged " + merged.size() + (merged.size() == 1 ? " group." : " groups."),
                tokens, merged, skipped, removed, List.of());
    }

    /** Why the memories of the writes are not as read, if they are not. */
    private static Optional<String> changedSinceRead(List<MergeWrite> writes, Reader reader) {
        for (MergeWrite write : writes) {
            for (MemoryEntry before : write.involved()) {
                Optional<MemoryEntry> now = reader.get(before.key(), before.scope());
                if (now.isEmpty() || !now.get().equals(before)) {
                    return Optional.of("'" + before.key() + "' (" + before.scope().id() + ") changed while the "
                            + "consolidation was being planned; nothing was written. Run it again.");
                }
            }
        }
        return Optional.empty();
    }

    @FunctionalInterface
    private interface Reader {
        Optional<MemoryEntry> get(String key, Scope scope);
    }

    private ConsolidationReport rejected(long tokens, String why) {
        return report(Outcome.REJECTED, why, tokens, List.of(), List.of(), List.of(), List.of(why));
    }

    private ConsolidationReport report(Outcome outcome, String reason, long tokens, List<Group> merged,
                                       List<Group> skipped, List<EntryRef> removed, List<String> failures) {
        return new ConsolidationReport(outcome, reason, dryRun, tokens, threshold, merged, skipped, removed, failures);
    }

    /** Builds a {@link Consolidation}. */
    public static final class Builder {
        private MemoryProvider provider;
        private Set<Scope> scopes = EnumSet.of(Scope.PROJECT);
        private Consolidator consolidator = DeterministicConsolidator.create();
        private int threshold = DEFAULT_THRESHOLD;
        private TokenEstimator estimator = TokenEstimator.DEFAULT;
        private boolean dryRun;

        private Builder() {
        }

        /** The provider to consolidate (required). */
        public Builder provider(MemoryProvider provider) {
            this.provider = Objects.requireNonNull(provider, "provider");
            return this;
        }

        /**
         * The scopes to consolidate, each on its own (a group never spans scopes); default PROJECT.
         *
         * @throws InvalidRequestException if none is given
         */
        public Builder scopes(Scope... scopes) {
            if (scopes.length == 0) {
                throw new InvalidRequestException("Name at least one scope to consolidate.");
            }
            this.scopes = EnumSet.copyOf(Arrays.asList(scopes));
            return this;
        }

        /** Who plans the merges; default {@link DeterministicConsolidator#create()}. */
        public Builder consolidator(Consolidator consolidator) {
            this.consolidator = Objects.requireNonNull(consolidator, "consolidator");
            return this;
        }

        /**
         * The size, in estimated tokens of the values of all the scopes, over which a run consolidates; 0 to always run.
         *
         * @throws InvalidRequestException if negative
         */
        public Builder threshold(int tokens) {
            if (tokens < 0) {
                throw new InvalidRequestException("A consolidation threshold must not be negative, was " + tokens + ".");
            }
            this.threshold = tokens;
            return this;
        }

        /** How sizes are estimated; default {@link TokenEstimator#DEFAULT}. */
        public Builder estimator(TokenEstimator estimator) {
            this.estimator = Objects.requireNonNull(estimator, "estimator");
            return this;
        }

        /** Whether to plan and check only, writing nothing. */
        public Builder dryRun(boolean dryRun) {
            this.dryRun = dryRun;
            return this;
        }

        /** Builds the run; nothing is read before {@link Consolidation#run()}. */
        public Consolidation build() {
            return new Consolidation(this);
        }
    }
}
