package dev.forge.memory;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A long-term memory store; callers get one from a {@link dev.forge.memory.spi.MemoryProviderFactory} found by name.
 *
 * <p>The contract, which the conformance suite checks for every provider:
 * <ul>
 *   <li>Keys follow {@link Keys} (stored verbatim); values, tags and metadata {@link EntryRules} and {@link #limits()}.</li>
 *   <li>A provider is opened for one project and one session. PROJECT entries of other projects and SESSION
 *       entries of other sessions are invisible to it and untouched by it; GLOBAL entries are shared. A session
 *       belongs to its project: the same session id in two projects names two separate sessions.</li>
 *   <li>Every method is safe to call from many threads at once. Each provider documents what happens when
 *       several processes open the same store.</li>
 *   <li>A failed call changes nothing. Errors are {@link MemoryException}s; a {@code null} argument is a
 *       programming error and throws {@link NullPointerException}.</li>
 *   <li>Every completed write is seen by the next read, query and search of the same provider.</li>
 *   <li>After {@link #close()}, every operation, including those of the facets, throws
 *       {@link BackendUnavailableException}; {@code name}, {@code capabilities}, {@code limits} and the facet
 *       accessors keep answering, and {@code close} may be called again.</li>
 * </ul>
 */
public interface MemoryProvider extends AutoCloseable {

    /** The provider's name, as its factory's {@code name()}; used in messages. */
    String name();

    /** The entry stored under {@code key} in {@code scope}, if any; {@link InvalidKeyException} for a key breaking the rules. */
    Optional<MemoryEntry> get(String key, Scope scope);

    /**
     * Stores a value under {@code key} in {@code scope}, replacing what was there.
     *
     * <p>A first write gets version 1 and {@code createdAt == updatedAt == now}; an overwrite keeps
     * {@code createdAt}, sets {@code updatedAt} to now and increments the version, even when nothing changed.
     * Tags keep their order with later duplicates dropped. After a delete, the key starts again at version 1 and a
     * new {@code createdAt}; with {@link Capability#TOMBSTONES} the numbering continues after the tombstone's
     * version instead, and {@code createdAt} is still new.
     *
     * @param tags     tags, ordered
     * @param metadata JSON-compatible metadata (see {@link dev.forge.memory.EntryRules#normalizeMetadata})
     * @return the entry as stored
     * @throws InvalidKeyException     if the key breaks the key rules
     * @throws ValueTooLargeException  if the value is over {@link Limits#maxValueBytes()}
     * @throws InvalidEntryException   if a tag or the metadata cannot be stored
     */
    MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata);

    /** Stores a value without tags or metadata; see {@link #set(String, String, Scope, List, Map)}. */
    default MemoryEntry set(String key, String value, Scope scope) {
        return set(key, value, scope, List.of(), Map.of());
    }

    /** The entries selected by {@code query}, in its order; see {@link Query}. */
    List<MemoryEntry> query(Query query);

    /**
     * Ranked text search; see {@link SearchRequest}.
     *
     * @throws UnsupportedCapabilityException if the mode's {@link SearchMode#requiredCapability()} is missing
     */
    List<Hit> search(SearchRequest request);

    /**
     * Removes the entry, its history and its relations. With {@link Capability#TOMBSTONES} the history stays,
     * ended by a tombstone, until {@link VersionHistory#purge(String, Scope)}; the entry and its relations go.
     *
     * @return whether there was an entry; deleting a missing key is a no-op that returns false
     */
    boolean delete(String key, Scope scope);

    /**
     * Removes every entry of {@code scope} that this provider can see: for SESSION only this session's
     * entries, for PROJECT only this project's, for GLOBAL every global entry. Like {@link #delete}, it keeps
     * the histories where the provider has {@link Capability#TOMBSTONES}.
     *
     * @return the number of entries removed
     */
    int clear(Scope scope);

    /** Ends this provider's session: removes its SESSION entries and returns how many. The provider stays open. */
    default int endSession() {
        return clear(Scope.SESSION);
    }

    /** The optional capabilities this provider has; consistent with the facet accessors. */
    Set<Capability> capabilities();

    /** The size limits this provider enforces on writes. */
    default Limits limits() {
        return Limits.DEFAULT;
    }

    /** Relations between entries, present exactly when {@link Capability#GRAPH} is listed. */
    default Optional<MemoryGraph> graph() {
        return Optional.empty();
    }

    /** Atomic multi-entry changes, present exactly when {@link Capability#TRANSACTIONS} is listed. */
    default Optional<Transactions> transactions() {
        return Optional.empty();
    }

    /** Every version of a key, present exactly when {@link Capability#HISTORY} is listed. */
    default Optional<VersionHistory> history() {
        return Optional.empty();
    }

    /** Rebuilding of derived indexes, present exactly when {@link Capability#REINDEX} is listed. */
    default Optional<Reindexing> reindexing() {
        return Optional.empty();
    }

    /** Writing entries back as they were (import, migration), present exactly when {@link Capability#RESTORE} is listed. */
    default Optional<Restoring> restoring() {
        return Optional.empty();
    }

    /** Indexes on entry fields, present exactly when {@link Capability#FIELD_INDEX} is listed. */
    default Optional<FieldIndexing> fieldIndexing() {
        return Optional.empty();
    }

    /** The graph facet, or {@link UnsupportedCapabilityException} naming this provider. */
    default MemoryGraph requireGraph() {
        return graph().orElseThrow(() -> new UnsupportedCapabilityException(name(), Capability.GRAPH));
    }

    /** The transactions facet, or {@link UnsupportedCapabilityException} naming this provider. */
    default Transactions requireTransactions() {
        return transactions().orElseThrow(() -> new UnsupportedCapabilityException(name(), Capability.TRANSACTIONS));
    }

    /** The history facet, or {@link UnsupportedCapabilityException} naming this provider. */
    default VersionHistory requireHistory() {
        return history().orElseThrow(() -> new UnsupportedCapabilityException(name(), Capability.HISTORY));
    }

    /** The reindexing facet, or {@link UnsupportedCapabilityException} naming this provider. */
    default Reindexing requireReindexing() {
        return reindexing().orElseThrow(() -> new UnsupportedCapabilityException(name(), Capability.REINDEX));
    }

    /** The restoring facet, or {@link UnsupportedCapabilityException} naming this provider. */
    default Restoring requireRestoring() {
        return restoring().orElseThrow(() -> new UnsupportedCapabilityException(name(), Capability.RESTORE));
    }

    /** The field indexing facet, or {@link UnsupportedCapabilityException} naming this provider. */
    default FieldIndexing requireFieldIndexing() {
        return fieldIndexing().orElseThrow(() -> new UnsupportedCapabilityException(name(), Capability.FIELD_INDEX));
    }

    /**
     * What is wrong with the stored data (unreadable files that reads skip, broken version chains...), in a stable
     * order; empty when nothing was found. The default checks nothing: providers whose data a person or a crash can
     * damage override it.
     */
    default List<StoreProblem> doctor() {
        return List.of();
    }

    /** Releases the backend. Idempotent; stored memories stay stored. */
    @Override
    void close();
}
