package dev.forge.memory.sqlite.internal;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.support.EntryStore;
import dev.forge.memory.support.EntryWrite;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The two database files a provider works on: the project store (PROJECT and SESSION entries) and the global store
 * (GLOBAL entries, shared by every project of the user). Each call about one key goes to the store of its scope; a
 * query or search over scopes of both runs on each and merges. When both are one file, {@link #project()} and
 * {@link #global()} are the same store and every call goes to it alone, as in a single-file setup.
 */
public final class ScopedStores implements EntryStore {

    private final SqliteStore project;
    private final SqliteStore global;

    /** The stores of PROJECT and SESSION entries and of GLOBAL ones; pass one store twice for a single file. */
    public ScopedStores(SqliteStore project, SqliteStore global) {
        this.project = project;
        this.global = global;
    }

    /** The store of PROJECT and SESSION entries. */
    public SqliteStore project() {
        return project;
    }

    /** The store of GLOBAL entries. */
    public SqliteStore global() {
        return global;
    }

    /** Whether GLOBAL entries live in a file of their own. */
    public boolean split() {
        return project != global;
    }

    /** The store of {@code scope}'s entries. */
    public SqliteStore of(Scope scope) {
        return scope == Scope.GLOBAL ? global : project;
    }

    /** Both stores, the project's first; one when they are one file. */
    public List<SqliteStore> all() {
        return split() ? List.of(project, global) : List.of(project);
    }

    @Override
    public void checkOpen() {
        project.checkOpen();
    }

    @Override
    public Optional<MemoryEntry> get(String key, Scope scope) {
        return of(scope).get(key, scope);
    }

    @Override
    public MemoryEntry set(EntryWrite write) {
        return of(write.scope()).set(write);
    }

    @Override
    public boolean delete(String key, Scope scope) {
        return of(scope).delete(key, scope);
    }

    @Override
    public int clear(Scope scope) {
        return of(scope).clear(scope);
    }

    @Override
    public int endSession() {
        return project.endSession();
    }

    @Override
    public MemoryEntry restore(List<MemoryEntry> chain) {
        return of(chain.get(chain.size() - 1).scope()).restore(chain);
    }

    /**
     * Restores {@code chains} in one transaction per file. With GLOBAL keys in a file of their own both files' write
     * locks are held (the project's first, its chains staged) and the global file commits first, as {@link SqliteTransactions} commits:
     * only a crash or an I/O failure between the two commits leaves the GLOBAL chains applied without the others.
     */
    @Override
    public List<MemoryEntry> restoreAll(List<List<MemoryEntry>> chains) {
        List<List<MemoryEntry>> local = new ArrayList<>();
        List<List<MemoryEntry>> shared = new ArrayList<>();
        for (List<MemoryEntry> chain : chains) {
            (of(chain.get(chain.size() - 1).scope()) == global ? shared : local).add(chain);
        }
        if (!split() || shared.isEmpty() || local.isEmpty()) {
            return (local.isEmpty() ? global : project).restoreAll(chains);
        }
        project.checkOpen();
        global.checkOpen();
        project.database().write("restore " + local.size() + " keys", connection -> {
            List<MemoryEntry> staged = project.restoreIn(connection, local);
            global.database().write("restore " + shared.size() + " GLOBAL keys", other -> global.restoreIn(other, shared));
            return staged;
        });
        return chains.stream().map(chain -> chain.get(chain.size() - 1)).toList();
    }

    /**
     * The query on each store for the scopes it holds, each cut to the first {@code offset + limit} entries in the
     * query's order, then merged, ordered and paged once more: the page is the one a single store would give.
     */
    @Override
    public List<MemoryEntry> query(Query query) {
        Set<Scope> local = localScopes(query.scopes());
        if (!split() || local.isEmpty() || !query.scopes().contains(Scope.GLOBAL)) {
            return (local.isEmpty() ? global : project).query(query);
        }
        int window = query.limit() == Query.UNLIMITED ? Query.UNLIMITED
                : (int) Math.min((long) query.limit() + query.offset(), Query.UNLIMITED);
        List<MemoryEntry> merged = new ArrayList<>(project.query(
                new Query(query.pattern(), local, query.filter(), query.order(), window, 0)));
        merged.addAll(global.query(new Query(query.pattern(), Set.of(Scope.GLOBAL), query.filter(), query.order(), window, 0)));
        return query.apply(merged);
    }

    /**
     * Keyword search on each store for the scopes it holds, merged by score (ties by key, then scope) and cut to the
     * limit. Each file's {@code bm25()} weighs terms by that file's own statistics and is divided by the best score
     * the query could reach in that file ({@link SqliteStore#score}).
     */
    public List<SqliteStore.Found> search(SearchRequest request, boolean snippets) {
        Set<Scope> local = localScopes(request.scopes());
        if (!split() || local.isEmpty() || !request.scopes().contains(Scope.GLOBAL)) {
            return (local.isEmpty() ? global : project).search(request, snippets);
        }
        List<SqliteStore.Found> merged = new ArrayList<>(project.search(new SearchRequest(request.text(), local,
                request.mode(), request.limit(), request.threshold(), request.filter()), snippets));
        merged.addAll(global.search(new SearchRequest(request.text(), Set.of(Scope.GLOBAL), request.mode(),
                request.limit(), request.threshold(), request.filter()), snippets));
        merged.sort(Comparator.comparing(SqliteStore.Found::hit, SqliteStore.RANKING));
        return merged.size() > request.limit() ? List.copyOf(merged.subList(0, request.limit())) : List.copyOf(merged);
    }

    private static Set<Scope> localScopes(Set<Scope> scopes) {
        Set<Scope> local = EnumSet.noneOf(Scope.class);
        for (Scope scope : scopes) {
            if (scope != Scope.GLOBAL) {
                local.add(scope);
            }
        }
        return local;
    }

    /** Closes both stores, the global one last. Idempotent. */
    public void close() {
        project.close();
        if (split()) {
            global.close();
        }
    }
}
