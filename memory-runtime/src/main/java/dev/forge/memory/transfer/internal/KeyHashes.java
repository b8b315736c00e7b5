package dev.forge.memory.transfer.internal;

import dev.forge.memory.EntryRef;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * 64-bit fingerprints of entry addresses in a growable array: how an import checks a file of millions of records for
 * duplicate keys and dangling relations in a few bytes per record, never holding the keys. A fingerprint match is
 * only a hint; callers confirm it on the real keys.
 */
public final class KeyHashes {

    private long[] hashes = new long[1024];
    private int size;
    private boolean sorted = true;

    /** The fingerprint of {@code ref}: FNV-1a over the scope and the UTF-8 key, then a 64-bit finaliser. */
    public static long of(EntryRef ref) {
        long h = 0xcbf29ce484222325L;
        h = (h ^ ref.scope().ordinal()) * 0x100000001b3L;
        for (byte b : ref.key().getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }

    /** Adds a fingerprint. */
    public void add(long hash) {
        if (size == hashes.length) {
            hashes = Arrays.copyOf(hashes, hashes.length * 2);
        }
        hashes[size++] = hash;
        sorted = false;
    }

    /** The number added. */
    public int size() {
        return size;
    }

    private void sort() {
        if (!sorted) {
            Arrays.sort(hashes, 0, size);
            sorted = true;
        }
    }

    /** Whether {@code hash} was added. */
    public boolean contains(long hash) {
        sort();
        return Arrays.binarySearch(hashes, 0, size, hash) >= 0;
    }

    /** The fingerprints added more than once. */
    public KeyHashes repeated() {
        sort();
        KeyHashes repeated = new KeyHashes();
        for (int i = 1; i < size; i++) {
            if (hashes[i] == hashes[i - 1] && (repeated.size == 0 || repeated.hashes[repeated.size - 1] != hashes[i])) {
                repeated.add(hashes[i]);
            }
        }
        return repeated;
    }
}
