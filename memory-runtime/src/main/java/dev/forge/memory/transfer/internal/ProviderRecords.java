package dev.forge.memory.transfer.internal;

import dev.forge.memory.Capability;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.VersionHistory;
import dev.forge.memory.support.KeyPages;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The records of a live provider, read page by page so that a store of any size streams: the entries of each scope
 * in key order with their earlier versions, then (where the provider keeps {@link Capability#TOMBSTONES}) the deleted
 * keys of the scope with their versions, then the outgoing relations of each entry whose other end is exported too.
 * A store changed while it is read may be exported part before and part after the change (pages are not a snapshot).
 *
 * <p>A provider that implements {@link KeyPages} is read through it (keyset pages, each key's history in the same
 * statement, the graph asked only about keys that may relate); any other through {@code query} pages and a
 * {@code history()} read per key with earlier versions. Both give the same records in the same order. A live key whose
 * entry cannot be read is an {@linkplain RecordVisitor#invalid invalid} record where the pages name it; {@code query}
 * leaves such entries out unnamed, so {@link #unseenProblems()} asks the provider's doctor instead.
 */
public final class ProviderRecords implements RecordSource {

    private final MemoryProvider provider;
    private final Set<Scope> scopes;
    private final int pageSize;

    /** Reads {@code scopes} of {@code provider}, {@code pageSize} entries per query. */
    public ProviderRecords(MemoryProvider provider, Set<Scope> scopes, int pageSize) {
        this.provider = provider;
        this.scopes = Set.copyOf(scopes);
        this.pageSize = pageSize;
    }

    @Override
    public String describe() {
        return "provider '" + provider.name() + "'";
    }

    @Override
    public void read(RecordVisitor visitor) {
        if (provider instanceof KeyPages pages) {
            readPages(pages, visitor);
            return;
        }
        long[] ordinal = {0};
        Optional<VersionHistory> history = provider.history();
        for (Scope scope : Scope.values()) {
            if (!scopes.contains(scope)) {
                continue;
            }
            forEachEntry(scope, entry -> {
                List<MemoryEntry> earlier = new ArrayList<>();
                // Versions start at 1: a key at version 1 has nothing earlier, so only later versions cost a read.
                if (history.isPresent() && entry.version() > 1) {
                    for (MemoryEntry version : history.get().versions(entry.key(), scope)) {
                        if (version.version() < entry.version()) {
                            earlier.add(version);
                        }
                    }
                }
                visitor.entry(ordinal[0]++, location(entry), new Records.Entry(entry, earlier));
            });
            if (history.isPresent() && provider.capabilities().contains(Capability.TOMBSTONES)) {
                for (String key : history.get().deletedKeys(scope)) {
                    List<MemoryEntry> versions = history.get().versions(key, scope);
                    if (!versions.isEmpty()) {
                        MemoryEntry last = versions.get(versions.size() - 1);
                        visitor.entry(ordinal[0]++, location(last),
                                new Records.Entry(last, versions.subList(0, versions.size() - 1), true, List.of()));
                    }
                }
            }
        }
        Optional<MemoryGraph> graph = provider.capabilities().contains(Capability.GRAPH) ? provider.graph() : Optional.empty();
        if (graph.isEmpty()) {
            return;
        }
        for (Scope scope : Scope.values()) {
            if (!scopes.contains(scope)) {
                continue;
            }
            forEachEntry(scope, entry -> visitRelations(graph.get(), entry.ref(), visitor, ordinal));
        }
    }

    /** {@link #read} through the provider's own pages. */
    private void readPages(KeyPages pages, RecordVisitor visitor) {
        long[] ordinal = {0};
        boolean tombstones = provider.history().isPresent() && provider.capabilities().contains(Capability.TOMBSTONES);
        for (Scope scope : Scope.values()) {
            if (!scopes.contains(scope)) {
                continue;
            }
            forEachItem(after -> unreadable(pages.live(scope, after, pageSize), scope, visitor, ordinal),
                    chain -> visitor.entry(ordinal[0]++, location(chain.current().ref()),
                            new Records.Entry(chain.current(), chain.earlier())));
            if (tombstones) {
                forEachItem(after -> pages.deleted(scope, after, pageSize), chain -> visitor.entry(ordinal[0]++,
                        location(chain.current().ref()), new Records.Entry(chain.current(), chain.earlier(), true, List.of())));
            }
        }
        Optional<MemoryGraph> graph = provider.capabilities().contains(Capability.GRAPH) ? provider.graph() : Optional.empty();
        if (graph.isEmpty()) {
            return;
        }
        for (Scope scope : Scope.values()) {
            if (scopes.contains(scope)) {
                forEachItem(after -> pages.relating(scope, after, pageSize),
                        key -> visitRelations(graph.get(), new EntryRef(key, scope), visitor, ordinal));
            }
        }
    }

    /** Reports each key {@code page} left out as unreadable, as an invalid record; returns the page. */
    private static <T> KeyPages.Page<T> unreadable(KeyPages.Page<T> page, Scope scope, RecordVisitor visitor, long[] ordinal) {
        for (KeyPages.Unreadable each : page.unreadable()) {
            visitor.invalid(ordinal[0]++, location(new EntryRef(each.key(), scope)), each.problem());
        }
        return page;
    }

    /**
     * The problems a reader of this provider cannot see otherwise: its {@code doctor()} for a provider read through
     * {@code query}, which leaves an entry it cannot read (an unreadable file) out without a word; none for a provider
     * read through {@link KeyPages}, whose pages name each such key ({@link RecordVisitor#invalid}).
     */
    public List<StoreProblem> unseenProblems() {
        return provider instanceof KeyPages ? List.of() : provider.doctor();
    }

    private static <T> void forEachItem(Function<String, KeyPages.Page<T>> read, Consumer<T> action) {
        Optional<String> after = Optional.of("");
        while (after.isPresent()) {
            KeyPages.Page<T> page = read.apply(after.get());
            page.items().forEach(action);
            after = page.next();
        }
    }

    /** The outgoing relations of {@code entry} whose other end is exported too. */
    private void visitRelations(MemoryGraph graph, EntryRef entry, RecordVisitor visitor, long[] ordinal) {
        for (Relation relation : graph.relations(entry, Direction.OUTGOING)) {
            if (scopes.contains(relation.to().scope())) {
                visitor.relation(ordinal[0]++, location(entry),
                        new Records.Relation(relation.from(), relation.type(), relation.to(), Optional.of(relation.createdAt())));
            }
        }
    }

    private void forEachEntry(Scope scope, Consumer<MemoryEntry> action) {
        int offset = 0;
        while (true) {
            List<MemoryEntry> page = provider.query(Query.builder().scopes(scope).order(Query.Order.KEY)
                    .limit(pageSize).offset(offset).build());
            page.forEach(action);
            if (page.size() < pageSize) {
                return;
            }
            offset += page.size();
        }
    }

    private static String location(MemoryEntry entry) {
        return location(entry.ref());
    }

    private static String location(EntryRef entry) {
        return "entry " + entry.scope().id() + ":" + entry.key();
    }
}
