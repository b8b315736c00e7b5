package dev.forge.memory.mcp;

import dev.forge.memory.EntryRef;
import dev.forge.memory.GraphPath;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Relation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The JSON shapes of tool results: the same fields the command line's {@code --json} prints (an entry's key, value,
 * scope, tags, metadata, createdAt, updatedAt, version), plus the paging fields of a listing.
 */
final class Shapes {

    /** The most characters of a value a listing (query, search, traverse) carries; get returns all of it. */
    static final int PREVIEW_CHARS = 1_000;

    private Shapes() {
    }

    /** Every field of an entry, the whole value. */
    static Map<String, Object> entry(MemoryEntry entry) {
        return entry(entry, Integer.MAX_VALUE);
    }

    /** Every field of an entry, the value cut to {@link #PREVIEW_CHARS} (with {@code valueTruncated: true} if cut). */
    static Map<String, Object> listed(MemoryEntry entry) {
        return entry(entry, PREVIEW_CHARS);
    }

    private static Map<String, Object> entry(MemoryEntry entry, int maxChars) {
        Map<String, Object> node = ref(entry.ref());
        String value = entry.value();
        boolean cut = value.length() > maxChars;
        node.put("value", cut ? value.substring(0, value.offsetByCodePoints(0, value.codePointCount(0, maxChars))) : value);
        if (cut) {
            node.put("valueTruncated", true);
        }
        node.put("tags", entry.tags());
        node.put("metadata", entry.metadata());
        node.put("createdAt", entry.createdAt().toString());
        node.put("updatedAt", entry.updatedAt().toString());
        node.put("version", entry.version());
        return node;
    }

    static Map<String, Object> ref(EntryRef ref) {
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("key", ref.key());
        node.put("scope", ref.scope().id());
        return node;
    }

    static Map<String, Object> hit(Hit hit) {
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("score", hit.score());
        node.put("entry", listed(hit.entry()));
        return node;
    }

    static Map<String, Object> relation(Relation relation) {
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("from", ref(relation.from()));
        node.put("type", relation.type());
        node.put("to", ref(relation.to()));
        node.put("createdAt", relation.createdAt().toString());
        return node;
    }

    static Map<String, Object> path(GraphPath path) {
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("end", ref(path.end()));
        node.put("length", path.length());
        node.put("relations", path.relations().stream().map(Shapes::relation).toList());
        return node;
    }

    /**
     * One page of a listing: {@code field} holds at most {@code limit} of {@code fromOffset}, the items from
     * {@code offset} on (ask the provider for {@code limit + 1} of them); {@code nextCursor} is there when more follow.
     */
    static <T> Map<String, Object> page(String field, List<T> fromOffset, int offset, int limit,
            Function<T, Map<String, Object>> shape) {
        Map<String, Object> page = new LinkedHashMap<>();
        page.put(field, fromOffset.subList(0, Math.min(limit, fromOffset.size())).stream().map(shape).toList());
        if (fromOffset.size() > limit) {
            page.put("nextCursor", Integer.toString(offset + limit));
        }
        return page;
    }

    /** The items of {@code all} from {@code offset} on, for {@link #page}. */
    static <T> List<T> from(List<T> all, int offset) {
        return all.subList(Math.min(offset, all.size()), all.size());
    }
}
