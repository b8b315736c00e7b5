package dev.forge.memory.hybrid.internal;

import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Reindexing;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A hybrid router's reindex: rebuilds the children from the storage. Each child that can reindex itself does (a new
 * embedding model, say), then every entry of this project, this session and the global scope is written to the
 * children where their copy differs (restored, with the storage's versions and timestamps, where the child can
 * restore), copies the storage does not have are deleted, and the outbox's updates for this router (failed ones
 * included) are dropped, since the rebuild covers them. Progress counts the storage's entries.
 */
public final class ChildReindex implements Reindexing {

    private final Router router;

    /** The reindex of {@code router}'s children. */
    public ChildReindex(Router router) {
        this.router = router;
    }

    @Override
    public ReindexResult reindex(Progress progress) {
        Objects.requireNonNull(progress, "progress");
        router.state().checkOpen();
        MemoryProvider storage = router.storage();
        long started = System.nanoTime();
        String fingerprint = "";
        ReindexResult own = null;
        if (storage.reindexing().isPresent()) {
            own = storage.reindexing().get().reindex();
            fingerprint = own.fingerprint();
        }
        List<MemoryEntry> entries = storage.query(Query.builder().build());
        long total = entries.size();
        progress.update(0, total);
        for (Secondary child : router.secondaries()) {
            if (child.provider().reindexing().isPresent()) {
                ReindexResult result = child.provider().reindexing().get().reindex();
                if (!result.fingerprint().isEmpty()) {
                    fingerprint = result.fingerprint();
                }
            }
        }
        Map<EntryRef, MemoryEntry> stored = new HashMap<>();
        for (MemoryEntry entry : entries) {
            stored.put(entry.ref(), entry);
        }
        long done = 0;
        for (MemoryEntry entry : entries) {
            router.locked(entry.key(), entry.scope(), () -> {
                Optional<MemoryEntry> now = storage.get(entry.key(), entry.scope());
                for (Secondary child : router.secondaries()) {
                    Optional<MemoryEntry> copy = child.provider().get(entry.key(), entry.scope());
                    if (now.isPresent() && (copy.isEmpty() || !ChildCopies.sameContent(copy.get(), now.get()))) {
                        // restored where the child can (the storage's versions and timestamps), else set
                        router.restoreInChild(child, entry.key(), entry.scope());
                    } else if (now.isEmpty() && copy.isPresent()) {
                        child.provider().delete(entry.key(), entry.scope());
                    }
                }
                return null;
            });
            progress.update(++done, total);
        }
        for (Secondary child : router.secondaries()) {
            for (MemoryEntry copy : child.provider().query(Query.builder().build())) {
                if (!stored.containsKey(copy.ref())) {
                    router.locked(copy.key(), copy.scope(), () -> {
                        if (storage.get(copy.key(), copy.scope()).isEmpty()) {
                            child.provider().delete(copy.key(), copy.scope());
                        }
                        return null;
                    });
                }
            }
            child.retryAt = 0;
        }
        // what waits in the outbox is covered by the rebuild; replaying it again is harmless and empties it
        router.replay(true);
        progress.update(total, total);
        return new ReindexResult(own != null ? Math.max(own.entries(), total) : total, fingerprint,
                Duration.ofNanos(System.nanoTime() - started));
    }
}
