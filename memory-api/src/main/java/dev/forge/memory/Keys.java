package dev.forge.memory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;

/**
 * The key rules, enforced in one place, and a safe, injective mapping from keys to file names.
 *
 * <p>A key is any string of 1 to {@value Limits#MAX_KEY_LENGTH} code points with no control character
 * (Unicode category Cc), no line or paragraph separator (U+2028, U+2029) and no unpaired surrogate: one line of
 * text. Keys are stored verbatim, compared exactly and ordered by code point ({@link #compareKeys}).
 */
public final class Keys {

    /**
     * File names longer than this are shortened to a prefix plus a SHA-256 digest of the key. Leaves room for a
     * provider's suffix (such as {@code .v12.json.gz}) within the 143 bytes of eCryptfs and the 255 of most
     * other file systems.
     */
    public static final int MAX_FILE_NAME_LENGTH = 120;

    private static final Set<String> WINDOWS_DEVICE_NAMES = Set.of("con", "prn", "aux", "nul",
            "com0", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8", "com9",
            "lpt0", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9");
    private static final int DIGEST_PREFIX_LENGTH = MAX_FILE_NAME_LENGTH - 65;

    private Keys() {
    }

    /**
     * Checks a key against the rules.
     *
     * @return the key, unchanged
     * @throws NullPointerException if the key is null
     * @throws InvalidKeyException  saying which rule it breaks and where
     */
    public static String validate(String key) {
        return validate(key, "key", Limits.MAX_KEY_LENGTH);
    }

    /**
     * Checks an identifier (a key, a project or session id) against the key rules with its own length limit.
     *
     * @param what      what the text is, for the message ("key", "project id")
     * @param maxLength the most code points allowed
     * @throws InvalidKeyException saying which rule it breaks
     */
    public static String validate(String key, String what, int maxLength) {
        java.util.Objects.requireNonNull(key, what);
        if (key.isEmpty()) {
            throw new InvalidKeyException("A " + what + " must not be empty.");
        }
        int length = key.codePointCount(0, key.length());
        if (length > maxLength) {
            throw new InvalidKeyException("The " + what + " '" + abbreviate(key) + "' is " + length
                    + " characters long; the limit is " + maxLength + ". Use a shorter " + what + ".");
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                throw new InvalidKeyException("The " + what + " '" + abbreviate(key) + "' holds the control character U+"
                        + String.format("%04X", (int) c) + " at index " + i + "; remove it (keys are single-line text).");
            }
        }
        int unpaired = EntryRules.firstUnpairedSurrogate(key);
        if (unpaired >= 0) {
            throw new InvalidKeyException("The " + what + " '" + abbreviate(key) + "' holds an unpaired surrogate at index "
                    + unpaired + "; it cannot be stored as UTF-8.");
        }
        return key;
    }

    /**
     * Maps a key to a file name that is safe on every common file system and distinct for distinct keys.
     *
     * <p>{@code a-z 0-9 _ -} stand for themselves, {@code .} too except first or last; an upper-case letter
     * becomes {@code ^} plus the letter in lower case (so case-insensitive file systems keep keys apart);
     * every other character becomes {@code %} plus the lower-case hex of each UTF-8 byte. Names that would be
     * Windows device names get their first letter escaped. A name longer than {@value #MAX_FILE_NAME_LENGTH}
     * characters is cut and given a {@code ~} plus the SHA-256 hex of the key, so store the key inside the
     * file too and compare it on read.
     *
     * @throws InvalidKeyException if the key breaks the key rules
     */
    public static String toFileName(String key) {
        validate(key);
        StringBuilder out = new StringBuilder(key.length() + 16);
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            int b = bytes[i] & 0xff;
            boolean edge = i == 0 || i == bytes.length - 1;
            if (b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_' || b == '-' || b == '.' && !edge) {
                out.append((char) b);
            } else if (b >= 'A' && b <= 'Z') {
                out.append('^').append((char) (b + ('a' - 'A')));
            } else {
                out.append('%').append(Character.forDigit(b >> 4, 16)).append(Character.forDigit(b & 0xf, 16));
            }
        }
        String name = out.toString();
        int dot = name.indexOf('.');
        String stem = dot < 0 ? name : name.substring(0, dot);
        if (WINDOWS_DEVICE_NAMES.contains(stem)) {
            name = "%" + Integer.toHexString(name.charAt(0)) + name.substring(1);
        }
        if (name.length() > MAX_FILE_NAME_LENGTH) {
            String prefix = name.substring(0, DIGEST_PREFIX_LENGTH);
            int cut = prefix.lastIndexOf('%');
            if (cut >= DIGEST_PREFIX_LENGTH - 2) {
                prefix = prefix.substring(0, cut);
            }
            if (prefix.endsWith("^")) {
                prefix = prefix.substring(0, prefix.length() - 1);
            }
            name = prefix + "~" + sha256(key);
        }
        return name;
    }

    /**
     * Reverses {@link #toFileName}; empty for a shortened (digest) name or a name that no key maps to.
     */
    public static Optional<String> fromFileName(String fileName) {
        if (fileName.indexOf('~') >= 0) {
            return Optional.empty();
        }
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(fileName.length());
        for (int i = 0; i < fileName.length(); i++) {
            char c = fileName.charAt(i);
            if (c == '^' && i + 1 < fileName.length()) {
                char next = fileName.charAt(++i);
                if (next < 'a' || next > 'z') {
                    return Optional.empty();
                }
                bytes.write(next - ('a' - 'A'));
            } else if (c == '%' && i + 2 < fileName.length()) {
                int hi = Character.digit(fileName.charAt(i + 1), 16);
                int lo = Character.digit(fileName.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return Optional.empty();
                }
                bytes.write(hi << 4 | lo);
                i += 2;
            } else if (c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
                bytes.write(c);
            } else {
                return Optional.empty();
            }
        }
        String key = new String(bytes.toByteArray(), StandardCharsets.UTF_8);
        try {
            return toFileName(key).equals(fileName) ? Optional.of(key) : Optional.empty();
        } catch (InvalidKeyException e) {
            return Optional.empty();
        }
    }

    private static String sha256(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /**
     * Orders keys by Unicode code point, which is also the order of their UTF-8 bytes: the order of
     * {@link dev.forge.memory.Query.Order#KEY}, and the one SQL {@code BINARY} collations and byte-sorted indexes give.
     */
    public static int compareKeys(String a, String b) {
        int length = Math.min(a.length(), b.length());
        for (int i = 0; i < length; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                // Surrogates (U+D800..DFFF) encode code points above U+FFFF, so they sort after every other char.
                boolean xs = Character.isSurrogate(x);
                boolean ys = Character.isSurrogate(y);
                if (xs != ys) {
                    return xs ? 1 : -1;
                }
                return Character.compare(x, y);
            }
        }
        return Integer.compare(a.length(), b.length());
    }

    /** A key shortened for messages: at most 80 characters, never splitting a surrogate pair. */
    public static String abbreviate(String key) {
        if (key.length() <= 80) {
            return key;
        }
        int end = Character.isHighSurrogate(key.charAt(76)) ? 76 : 77;
        return key.substring(0, end) + "...";
    }
}
