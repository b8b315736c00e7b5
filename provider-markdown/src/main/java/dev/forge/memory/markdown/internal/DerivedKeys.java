package dev.forge.memory.markdown.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The keys of memory files that name none, as seed 000 (ADR-0044) and seed 003 write them: one memory per version
 * chain, keyed {@code <category>/<id of the chain's first version>} ({@code <id>} alone without a category), where
 * the category is the first version's. The first version is the end of the walk back along {@code supersedes}:
 * a version that supersedes nothing, or whose predecessor is not in the directory (then the oldest one present), or,
 * in a cycle, the smallest id on it. A new version never changes its chain's first file, so the key stays the same
 * as versions are added, on every open and every machine. A walk that reaches a file with a {@code key} (a version
 * the provider wrote on top of such a chain, or a file written by hand) takes that key.
 */
final class DerivedKeys {

    // The ids of the readable files of one directory that name no key.
    private final Set<String> keyless = new HashSet<>();
    // Set when such a file came or went: the keys of the others may change with it.
    private boolean changed;

    /** Whether the file with this id names no key. */
    boolean contains(String id) {
        return keyless.contains(id);
    }

    /** Notes that the file with this id, which names no key, is indexed. */
    void added(String id) {
        changed |= keyless.add(id);
    }

    /** Notes that the file with this id is no longer indexed. */
    void removed(String id) {
        changed |= keyless.remove(id);
    }

    /** The key of {@code read}, a file that names no key, in a directory whose readable files {@code byId} holds. */
    String keyOf(MemoryFile read, Map<String, IndexedFile> byId) {
        return derive(List.of(read.id()), id -> id.equals(read.id()) ? read : keylessFile(id, byId),
                id -> ownKey(id, byId)).get(read.id());
    }

    /**
     * The files whose key changed since {@link #settled()} (a file read before its predecessor, a first version put
     * back), with their new keys; empty when no file that names no key came or went.
     */
    Map<String, String> changedKeys(Map<String, IndexedFile> byId) {
        if (!changed) {
            return Map.of();
        }
        Map<String, String> keys = derive(keyless, id -> keylessFile(id, byId), id -> ownKey(id, byId));
        keys.keySet().retainAll(keyless);
        keys.entrySet().removeIf(entry -> byId.get(entry.getKey()) == null
                || byId.get(entry.getKey()).file().key().equals(entry.getValue()));
        return keys;
    }

    /** Notes that every file has the key {@link #changedKeys} gives it. */
    void settled() {
        changed = false;
    }

    private MemoryFile keylessFile(String id, Map<String, IndexedFile> byId) {
        IndexedFile file = keyless.contains(id) ? byId.get(id) : null;
        return file == null ? null : file.file();
    }

    private String ownKey(String id, Map<String, IndexedFile> byId) {
        IndexedFile file = keyless.contains(id) ? null : byId.get(id);
        return file == null ? null : file.file().key();
    }

    /** The key of a chain whose first version is {@code first}. */
    static String keyOf(MemoryFile first) {
        return first.category().filter(category -> !category.isBlank()).map(category -> category + "/").orElse("")
                + first.id();
    }

    /**
     * The key of each file that names none.
     *
     * @param starts  the ids of the files whose keys are wanted
     * @param keyless a file without a key of its own (any {@code key} it holds now is ignored) by id; null for ids of
     *                no such file
     * @param keyed   the key of a file with a key of its own, by id; null for ids of no such file
     * @return the key of each of {@code starts}, and of the files walked to reach it
     */
    static Map<String, String> derive(Collection<String> starts, Function<String, MemoryFile> keyless,
            Function<String, String> keyed) {
        Map<String, String> keys = new HashMap<>();
        for (String start : new TreeSet<>(starts)) {
            if (keys.containsKey(start)) {
                continue;
            }
            List<String> path = new ArrayList<>();
            Map<String, Integer> at = new HashMap<>();
            String current = start;
            String key;
            while (true) {
                if (keys.containsKey(current)) {
                    key = keys.get(current);
                    break;
                }
                MemoryFile file = keyless.apply(current);
                if (file == null) {
                    String own = keyed.apply(current);
                    key = own != null ? own : keyOf(keyless.apply(path.get(path.size() - 1)));
                    break;
                }
                if (at.containsKey(current)) {
                    key = keyOf(keyless.apply(new TreeSet<>(path.subList(at.get(current), path.size())).first()));
                    break;
                }
                at.put(current, path.size());
                path.add(current);
                Optional<String> previous = file.supersedes();
                if (previous.isEmpty()) {
                    key = keyOf(file);
                    break;
                }
                current = previous.get();
            }
            for (String id : path) {
                keys.put(id, key);
            }
        }
        return keys;
    }
}
