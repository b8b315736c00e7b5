package dev.forge.memory.support;

import dev.forge.memory.FieldIndexing;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Reindexing;
import dev.forge.memory.Restoring;
import dev.forge.memory.Transactions;
import dev.forge.memory.VersionHistory;
import java.util.Objects;
import java.util.Optional;

/**
 * A provider whose optional facets are fixed when it is made: the subclass's constructor offers each facet it has
 * ({@link #offerGraph}, {@link #offerHistory}...), and the accessors return them; a facet not offered is empty. So
 * an accessor never returns something that then throws for lack of the capability.
 */
public abstract class FacetedMemoryProvider implements MemoryProvider {

    // Volatile: offered in the subclass's constructor, read by any thread the provider is handed to.
    private volatile MemoryGraph graph;
    private volatile Transactions transactions;
    private volatile VersionHistory history;
    private volatile Restoring restoring;
    private volatile Reindexing reindexing;
    private volatile FieldIndexing fieldIndexing;

    /** A provider with no facets until its constructor offers them. */
    protected FacetedMemoryProvider() {
    }

    /** Offers the graph facet. Call from the constructor. */
    protected final void offerGraph(MemoryGraph graph) {
        this.graph = Objects.requireNonNull(graph, "graph");
    }

    /** Offers transactions. Call from the constructor. */
    protected final void offerTransactions(Transactions transactions) {
        this.transactions = Objects.requireNonNull(transactions, "transactions");
    }

    /** Offers the history facet. Call from the constructor. */
    protected final void offerHistory(VersionHistory history) {
        this.history = Objects.requireNonNull(history, "history");
    }

    /** Offers restores. Call from the constructor. */
    protected final void offerRestoring(Restoring restoring) {
        this.restoring = Objects.requireNonNull(restoring, "restoring");
    }

    /** Offers reindexing. Call from the constructor. */
    protected final void offerReindexing(Reindexing reindexing) {
        this.reindexing = Objects.requireNonNull(reindexing, "reindexing");
    }

    /** Offers field indexes. Call from the constructor. */
    protected final void offerFieldIndexing(FieldIndexing fieldIndexing) {
        this.fieldIndexing = Objects.requireNonNull(fieldIndexing, "fieldIndexing");
    }

    @Override
    public final Optional<MemoryGraph> graph() {
        return Optional.ofNullable(graph);
    }

    @Override
    public final Optional<Transactions> transactions() {
        return Optional.ofNullable(transactions);
    }

    @Override
    public final Optional<VersionHistory> history() {
        return Optional.ofNullable(history);
    }

    @Override
    public final Optional<Restoring> restoring() {
        return Optional.ofNullable(restoring);
    }

    @Override
    public final Optional<Reindexing> reindexing() {
        return Optional.ofNullable(reindexing);
    }

    @Override
    public final Optional<FieldIndexing> fieldIndexing() {
        return Optional.ofNullable(fieldIndexing);
    }
}
