package dev.forge.memory.vector;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.support.SearchText;
import dev.forge.memory.vector.internal.Documents;
import dev.forge.memory.vector.internal.ScopedIndexes;
import dev.forge.memory.vector.internal.VectorIndex;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.TermQuery;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * GLOBAL entries a project's index holds from before GLOBAL moved to the shared index at {@code global_path}: moved
 * there when a provider opens, each exactly as it was (version, timestamps), with a vector of the configured model.
 *
 * <p>Crash-safe by order: the shared index commits the moved entries first, the project's index then deletes them; a
 * crash in between leaves each entry in both with the same content, and the next open, finding it so, deletes it from
 * the project's index. A key the shared index holds with other content (value, tags or metadata) is not overwritten:
 * the project's entry is set aside in namespace {@link Documents#UNMOVED_GLOBAL}, which no scope reads,
 * {@link #problems reported} by {@code doctor}, and moved by a later open once the shared key is gone.
 */
final class LegacyGlobal {

    private static final Logger LOG = LoggerFactory.getLogger(LegacyGlobal.class);
    private static final String GLOBAL = Documents.namespace(Scope.GLOBAL, "", "");

    private LegacyGlobal() {
    }

    /** An entry of the project's index in namespace {@code ns}, to move. */
    private record Legacy(String ns, MemoryEntry entry) {
    }

    /**
     * Moves the project's GLOBAL entries into the shared index, if GLOBAL has one of its own.
     *
     * @param text          what is indexed of an entry besides its value
     * @param embed         the unit vectors of texts
     * @param checkWritable called inside a write of an index, before a vector of the configured model enters it
     */
    static void move(ScopedIndexes indexes, SearchText text, Function<List<String>, List<float[]>> embed, Consumer<VectorIndex> checkWritable) {
        if (!indexes.split()) {
            return;
        }
        List<Legacy> legacy = new ArrayList<>();
        for (String ns : List.of(GLOBAL, Documents.UNMOVED_GLOBAL)) {
            read(indexes.project(), ns).forEach(entry -> legacy.add(new Legacy(ns, entry)));
        }
        if (legacy.isEmpty()) {
            return;
        }
        List<float[]> vectors = embed.apply(legacy.stream().map(l -> text.text(l.entry())).toList());
        List<Legacy> gone = new ArrayList<>();
        List<Integer> kept = new ArrayList<>();
        indexes.global().write(changes -> {
            Map<String, MemoryEntry> movedNow = new HashMap<>();
            for (int i = 0; i < legacy.size(); i++) {
                MemoryEntry entry = legacy.get(i).entry();
                String id = Documents.id(GLOBAL, entry.key());
                MemoryEntry movedBefore = movedNow.get(id);
                Optional<MemoryEntry> shared = movedBefore != null ? Optional.of(movedBefore)
                        : changes.current(id, indexes.global().directory() + " (global:" + entry.key() + ")");
                if (shared.isEmpty()) {
                    checkWritable.accept(indexes.global());
                    changes.put(id, Documents.document(entry, GLOBAL, "", "", text, vectors.get(i)), entry);
                    movedNow.put(id, entry);
                    gone.add(legacy.get(i));
                } else if (sameContent(shared.get(), entry)) {
                    gone.add(legacy.get(i));
                } else {
                    kept.add(i);
                }
            }
            return null;
        });
        indexes.project().write(changes -> {
            for (Legacy l : gone) {
                changes.delete(Documents.id(l.ns(), l.entry().key()));
            }
            for (int i : kept) {
                Legacy l = legacy.get(i);
                if (l.ns().equals(GLOBAL)) {
                    checkWritable.accept(indexes.project());
                    changes.put(Documents.id(Documents.UNMOVED_GLOBAL, l.entry().key()),
                            Documents.document(l.entry(), Documents.UNMOVED_GLOBAL, "", "", text, vectors.get(i)), l.entry());
                    changes.delete(Documents.id(GLOBAL, l.entry().key()));
                }
            }
            return null;
        });
        if (!gone.isEmpty()) {
            LOG.info("Moved {} GLOBAL entries of the vector index at {} to the shared GLOBAL index at {}", gone.size(),
                    indexes.project().directory(), indexes.global().directory());
        }
        if (!kept.isEmpty()) {
            LOG.warn("{} GLOBAL entries of the vector index at {} were not moved to the shared GLOBAL index at {}: it holds "
                    + "their keys with other content. forge-memory doctor lists them.", kept.size(),
                    indexes.project().directory(), indexes.global().directory());
        }
    }

    private static boolean sameContent(MemoryEntry a, MemoryEntry b) {
        return a.value().equals(b.value()) && a.tags().equals(b.tags()) && a.metadata().equals(b.metadata());
    }

    private static List<MemoryEntry> read(VectorIndex index, String ns) {
        return index.read(searcher -> VectorSearch.decodeAll(searcher,
                VectorSearch.matching(searcher, new TermQuery(new Term(Documents.NS, ns))), index.directory().toString()));
    }

    /** What {@code doctor} says of the entries set aside in the project's index. */
    static List<StoreProblem> problems(ScopedIndexes indexes) {
        if (!indexes.split()) {
            return List.of();
        }
        List<StoreProblem> problems = new ArrayList<>();
        for (MemoryEntry entry : read(indexes.project(), Documents.UNMOVED_GLOBAL)) {
            problems.add(new StoreProblem(indexes.project().directory() + " (global:" + entry.key() + ")",
                    "this project's own GLOBAL entry (version " + entry.version() + ", updated " + entry.updatedAt()
                    + ", from before GLOBAL was shared) was not moved to the shared GLOBAL index at "
                    + indexes.global().directory() + ", which holds the key with other content; it is kept aside and "
                    + "read by nothing. To make it the shared entry, delete the shared key (forge-memory delete, scope "
                    + "global) and open this project again: it is moved then"));
        }
        return problems;
    }
}
