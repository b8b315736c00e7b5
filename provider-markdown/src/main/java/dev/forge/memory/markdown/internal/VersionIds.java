package dev.forge.memory.markdown.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The ids of the version files the provider writes: {@code mem_} and a UUID of version 8 (RFC 9562: laid out by the
 * application) whose first 32 bits are the first 32 bits of the SHA-256 of the key, UTF-8, and whose other 90 free
 * bits are random. A file that cannot be read (no permission, a link loop, cut short, garbled) still tells from its
 * name which key it may belong to, so that the provider never takes an older version for that key's current one, nor
 * writes a second successor of it.
 *
 * <p>Ids of other forms (the random version 4 UUIDs written before, ids a person chose) tell nothing about their key.
 * A fingerprint of 32 bits can match another key by chance (about one pair in four billion): such a key is then also
 * held back while the file cannot be read, which costs availability, never a memory.
 */
final class VersionIds {

    private static final Pattern FINGERPRINTED = Pattern.compile(
            MemoryFileCodec.ID_PREFIX + "[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");

    private static final int FINGERPRINT_CHARS = 8;

    /** Created on first use, not when the class loads: seeding may read the system's entropy source. */
    private static final class RandomHolder {
        static final SecureRandom INSTANCE = new SecureRandom();
    }

    private VersionIds() {
    }

    /** A new id for a version of {@code key}. */
    static String newId(String key) {
        byte[] bytes = new byte[16];
        RandomHolder.INSTANCE.nextBytes(bytes);
        System.arraycopy(sha256(key), 0, bytes, 0, FINGERPRINT_CHARS / 2);
        bytes[6] = (byte) ((bytes[6] & 0x0f) | 0x80); // version 8
        bytes[8] = (byte) ((bytes[8] & 0x3f) | 0x80); // RFC 9562 variant
        long high = 0;
        long low = 0;
        for (int i = 0; i < 8; i++) {
            high = (high << 8) | (bytes[i] & 0xff);
            low = (low << 8) | (bytes[i + 8] & 0xff);
        }
        return MemoryFileCodec.ID_PREFIX + new UUID(high, low);
    }

    /** Whether {@code id} is of the form {@link #newId} writes, so that it names its key's fingerprint. */
    static boolean fingerprinted(String id) {
        return FINGERPRINTED.matcher(id).matches();
    }

    /** Whether {@code id} names {@code key}'s fingerprint: a version of that key (or, rarely, of one like it). */
    static boolean mayBelongTo(String id, String key) {
        return fingerprinted(id) && id.regionMatches(MemoryFileCodec.ID_PREFIX.length(), fingerprint(key), 0,
                FINGERPRINT_CHARS);
    }

    /** The fingerprint {@code id} names (see {@link #fingerprint}), or the empty string if it names none. */
    static String fingerprintOf(String id) {
        return fingerprinted(id) ? id.substring(MemoryFileCodec.ID_PREFIX.length(),
                MemoryFileCodec.ID_PREFIX.length() + FINGERPRINT_CHARS) : "";
    }

    /** The first 32 bits of the SHA-256 of {@code key}, as the first eight characters of an id's UUID. */
    static String fingerprint(String key) {
        return HexFormat.of().formatHex(sha256(key), 0, FINGERPRINT_CHARS / 2).toLowerCase(Locale.ROOT);
    }

    private static byte[] sha256(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
