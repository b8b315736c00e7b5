package dev.forge.memory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The rules for values, tags, metadata and relation types, enforced in one place so that every
 * provider accepts and rejects exactly the same input.
 */
public final class EntryRules {

    /** The deepest nesting of lists and maps metadata may have. */
    public static final int MAX_METADATA_DEPTH = 16;

    /**
     * The largest version a restore (and so an import or migration) accepts: 2<sup>53</sup> - 1, the largest whole
     * number a JSON reader that reads numbers as doubles (JavaScript, many others) reads exactly. Writes after a
     * restore count on from there (a {@code long} leaves 2<sup>63</sup> - 2<sup>53</sup> overwrites); only an export
     * of a key that went past it is refused by an import.
     */
    public static final long MAX_VERSION = (1L << 53) - 1;

    /**
     * The earliest time a restore accepts, 0001-01-01T00:00:00Z, and with {@link #LATEST} the range that every
     * backend stores and writes back: four-digit years are what ISO-8601 writers, SQLite's date functions and the
     * date types of most languages (Python's {@code datetime} among them) hold, and milliseconds since 1970 stay far
     * inside a {@code long}.
     */
    public static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");

    /** The latest time a restore accepts, 9999-12-31T23:59:59.999Z; see {@link #EARLIEST}. */
    public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");

    private static final Pattern RELATION_TYPE = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,63}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private EntryRules() {
    }

    /**
     * Checks a value (not null: {@link NullPointerException}): no unpaired surrogate, at most {@link Limits#maxValueBytes()} UTF-8 bytes.
     *
     * @throws ValueTooLargeException if it is too large
     * @throws InvalidEntryException  if it cannot be stored as UTF-8
     */
    public static String checkValue(String value, String key, Limits limits) {
        java.util.Objects.requireNonNull(value, "value");
        if (value.length() > limits.maxValueBytes()) {
            throw tooLarge(key, value.length(), limits);
        }
        int unpaired = firstUnpairedSurrogate(value);
        if (unpaired >= 0) {
            throw new InvalidEntryException("The value of key '" + Keys.abbreviate(key) + "' holds an unpaired surrogate at index "
                    + unpaired + "; it cannot be stored as UTF-8 without loss.");
        }
        long bytes = utf8Length(value);
        if (bytes > limits.maxValueBytes()) {
            throw tooLarge(key, bytes, limits);
        }
        return value;
    }

    private static ValueTooLargeException tooLarge(String key, long size, Limits limits) {
        return new ValueTooLargeException("The value of key '" + Keys.abbreviate(key) + "' is at least " + size
                + " bytes; this provider stores at most " + limits.maxValueBytes()
                + " bytes per value. Split it, or store the content elsewhere and keep a reference.");
    }

    /** The UTF-8 length of a string without unpaired surrogates, computed without encoding it. */
    public static long utf8Length(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /**
     * Checks and normalises tags: each 1 to {@link Limits#maxTagLength()} code points, no control character,
     * no unpaired surrogate, no leading or trailing white space; duplicates after the first are dropped; at
     * most {@link Limits#maxTags()} remain.
     *
     * @return an immutable list of the tags, in order, without duplicates
     * @throws InvalidEntryException naming the offending tag
     */
    public static List<String> normalizeTags(Collection<String> tags, String key, Limits limits) {
        java.util.Objects.requireNonNull(tags, "tags");
        LinkedHashSet<String> unique = new LinkedHashSet<>();
        for (String tag : tags) {
            if (tag == null || tag.isEmpty()) {
                throw new InvalidEntryException("Key '" + Keys.abbreviate(key) + "' has an empty or null tag; remove it.");
            }
            if (!tag.strip().equals(tag)) {
                throw new InvalidEntryException("Tag '" + Keys.abbreviate(tag) + "' of key '" + Keys.abbreviate(key)
                        + "' starts or ends with white space; trim it.");
            }
            try {
                Keys.validate(tag, "tag", limits.maxTagLength());
            } catch (dev.forge.memory.InvalidKeyException e) {
                throw new InvalidEntryException(e.getMessage() + " (on key '" + Keys.abbreviate(key) + "')", e);
            }
            unique.add(tag);
        }
        if (unique.size() > limits.maxTags()) {
            throw new InvalidEntryException("Key '" + Keys.abbreviate(key) + "' has " + unique.size()
                    + " tags; this provider stores at most " + limits.maxTags() + ".");
        }
        return List.copyOf(unique);
    }

    /**
     * Normalises metadata into a deeply immutable, JSON-compatible map with sorted keys.
     *
     * <p>Allowed values: {@code String}; {@code Boolean}; whole numbers ({@code Byte} to {@code Long}, and
     * {@code BigInteger} within the {@code long} range), all becoming {@code Long}; finite {@code Float} and
     * {@code Double}, becoming {@code Double}; {@code BigDecimal} that a {@code double} holds exactly; lists
     * and string-keyed maps of these, nested at most {@value #MAX_METADATA_DEPTH} deep. {@code null} values are
     * rejected (leave the key out instead), as are NaN and infinities, which JSON cannot hold.
     *
     * @param key the entry's key, for messages
     * @throws InvalidEntryException naming the offending metadata field
     */
    public static Map<String, Object> normalizeMetadata(Map<String, ?> metadata, String key) {
        java.util.Objects.requireNonNull(metadata, "metadata");
        @SuppressWarnings("unchecked")
        Map<String, Object> normalized = (Map<String, Object>) normalizeValue(metadata, key, "metadata", 0);
        return normalized;
    }

    private static Object normalizeValue(Object value, String key, String path, int depth) {
        if (depth > MAX_METADATA_DEPTH) {
            throw invalid(key, path, "is nested deeper than " + MAX_METADATA_DEPTH + " levels");
        }
        if (value == null) {
            throw invalid(key, path, "is null; leave the field out instead");
        }
        if (value instanceof String s) {
            int unpaired = firstUnpairedSurrogate(s);
            if (unpaired >= 0) {
                throw invalid(key, path, "holds an unpaired surrogate at index " + unpaired);
            }
            return s;
        }
        if (value instanceof Boolean || value instanceof Long) {
            return value;
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigInteger big) {
            if (big.bitLength() > 63) {
                throw invalid(key, path, "is a whole number outside the 64-bit range");
            }
            return big.longValue();
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (!Double.isFinite(d)) {
                throw invalid(key, path, "is " + d + ", which JSON cannot hold");
            }
            return value instanceof Float ? Double.valueOf(Float.toString((Float) value)) : value;
        }
        if (value instanceof BigDecimal decimal) {
            double d = decimal.doubleValue();
            if (!Double.isFinite(d) || new BigDecimal(Double.toString(d)).compareTo(decimal) != 0) {
                throw invalid(key, path, "is a decimal a double cannot hold exactly; store it as a string");
            }
            return d;
        }
        if (value instanceof Map<?, ?> map) {
            TreeMap<String, Object> copy = new TreeMap<>();
            for (Map.Entry<?, ?> field : map.entrySet()) {
                if (!(field.getKey() instanceof String name)) {
                    throw invalid(key, path, "has a non-string key " + field.getKey());
                }
                if (firstUnpairedSurrogate(name) >= 0) {
                    throw invalid(key, path, "has a field name with an unpaired surrogate");
                }
                copy.put(name, normalizeValue(field.getValue(), key, path + "." + name, depth + 1));
            }
            return Collections.unmodifiableMap(copy);
        }
        if (value instanceof Collection<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            int i = 0;
            for (Object item : list) {
                copy.add(normalizeValue(item, key, path + "[" + i++ + "]", depth + 1));
            }
            return Collections.unmodifiableList(copy);
        }
        throw invalid(key, path, "is a " + value.getClass().getName()
                + "; use strings, booleans, numbers, lists or maps");
    }

    private static InvalidEntryException invalid(String key, String path, String problem) {
        return new InvalidEntryException("The " + path + " of key '" + Keys.abbreviate(key) + "' " + problem + ".");
    }

    /**
     * Checks that normalised metadata, as compact UTF-8 JSON, fits {@link Limits#maxMetadataBytes()}.
     *
     * @throws InvalidEntryException if it does not
     */
    public static void checkMetadataSize(Map<String, Object> metadata, String key, Limits limits) {
        if (metadata.isEmpty()) {
            return;
        }
        int size;
        try {
            size = JSON.writeValueAsString(metadata).getBytes(StandardCharsets.UTF_8).length;
        } catch (JsonProcessingException e) {
            throw new InvalidEntryException("The metadata of key '" + Keys.abbreviate(key) + "' cannot be written as JSON.", e);
        }
        if (size > limits.maxMetadataBytes()) {
            throw new InvalidEntryException("The metadata of key '" + Keys.abbreviate(key) + "' is " + size
                    + " bytes as JSON; this provider stores at most " + limits.maxMetadataBytes() + ".");
        }
    }

    /**
     * Checks that {@code versions} can be restored as one key's chain ({@link dev.forge.memory.Restoring#restore}):
     * not empty; one key (valid) and one scope; versions strictly increasing and at most {@link #MAX_VERSION};
     * {@code createdAt} and {@code updatedAt} from {@link #EARLIEST} to {@link #LATEST}, {@code updatedAt} never
     * decreasing; every version's value, tags and metadata within {@code limits} (tags and metadata already
     * normalised, as a {@link MemoryEntry} holds them).
     *
     * @return the versions, as an immutable list
     * @throws dev.forge.memory.InvalidKeyException    for a bad key
     * @throws dev.forge.memory.ValueTooLargeException for a value over the limit
     * @throws InvalidEntryException                   for a broken chain, a version or time out of range, or tags
     *                                                 over the limits
     */
    public static List<MemoryEntry> checkChain(List<MemoryEntry> versions, Limits limits) {
        java.util.Objects.requireNonNull(versions, "versions");
        if (versions.isEmpty()) {
            throw new InvalidEntryException("A restore needs at least one version.");
        }
        List<MemoryEntry> chain = List.copyOf(versions);
        MemoryEntry first = chain.get(0);
        Keys.validate(first.key());
        MemoryEntry previous = null;
        for (MemoryEntry version : chain) {
            if (!version.key().equals(first.key()) || version.scope() != first.scope()) {
                throw new InvalidEntryException("A restore takes the versions of one key: found '" + version.scope().id()
                        + ":" + version.key() + "' among the versions of '" + first.scope().id() + ":" + first.key() + "'.");
            }
            checkStamps(version);
            if (previous != null && version.version() <= previous.version()) {
                throw new InvalidEntryException("The versions of key '" + first.key() + "' must increase: version "
                        + version.version() + " follows version " + previous.version() + ".");
            }
            if (previous != null && version.updatedAt().isBefore(previous.updatedAt())) {
                throw new InvalidEntryException("The versions of key '" + first.key() + "' must not go back in time: version "
                        + version.version() + " was updated at " + version.updatedAt() + ", before version "
                        + previous.version() + " at " + previous.updatedAt() + ".");
            }
            checkValue(version.value(), version.key(), limits);
            normalizeTags(version.tags(), version.key(), limits);
            checkMetadataSize(version.metadata(), version.key(), limits);
            previous = version;
        }
        return chain;
    }

    /**
     * Checks that an entry's version is from 1 to {@link #MAX_VERSION} and its times from {@link #EARLIEST} to
     * {@link #LATEST}: the stamps a restore takes as given rather than making them itself.
     *
     * @throws InvalidEntryException naming the key, the version and the value out of range
     */
    public static MemoryEntry checkStamps(MemoryEntry entry) {
        if (entry.version() > MAX_VERSION) {
            throw new InvalidEntryException("Key '" + Keys.abbreviate(entry.key()) + "' has version " + entry.version()
                    + "; versions go up to " + MAX_VERSION + " (2^53 - 1, the largest a JSON reader in any language reads"
                    + " exactly). Nothing was written; number the versions from 1.");
        }
        checkTime(entry, "created", entry.createdAt());
        checkTime(entry, "updated", entry.updatedAt());
        return entry;
    }

    private static void checkTime(MemoryEntry entry, String what, Instant time) {
        if (time.isBefore(EARLIEST) || time.isAfter(LATEST)) {
            throw new InvalidEntryException("Version " + entry.version() + " of key '" + Keys.abbreviate(entry.key())
                    + "' was " + what + " at " + time + ", outside the times a store holds (" + EARLIEST + " to " + LATEST
                    + "). Nothing was written; correct the time.");
        }
    }

    /**
     * Checks a relation type: a letter, then up to 63 letters, digits or underscores.
     *
     * @throws InvalidRequestException if it is malformed
     */
    public static String checkRelationType(String type) {
        if (type == null || !RELATION_TYPE.matcher(type).matches()) {
            throw new InvalidRequestException("Relation type '" + type
                    + "' is not valid: use a letter then letters, digits or '_', at most 64 characters (e.g. DEPENDS_ON).");
        }
        return type;
    }

    /**
     * Checks a relation's type and that its time is from {@link #EARLIEST} to {@link #LATEST}, as a restore takes it.
     *
     * @throws InvalidRequestException naming the relation and the problem
     */
    public static Relation checkRelationTime(Relation relation) {
        checkRelationType(relation.type());
        if (relation.createdAt().isBefore(EARLIEST) || relation.createdAt().isAfter(LATEST)) {
            throw new InvalidRequestException("Relation " + relation + " was made at " + relation.createdAt()
                    + ", outside the times a store holds (" + EARLIEST + " to " + LATEST + "). Nothing was written; "
                    + "correct the time.");
        }
        return relation;
    }

    /** The index of the first unpaired surrogate in {@code text}, or -1. */
    public static int firstUnpairedSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else {
                    return i;
                }
            } else if (Character.isLowSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }
}
