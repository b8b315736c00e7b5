package dev.forge.memory.markdown.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One memory file: one version of a memory, as its front-matter and body hold it. Immutable; collections hold no
 * null elements except JSON nulls inside {@code metadata} and {@code extra} values, and maps keep their order.
 *
 * <p>Values of {@code metadata} and {@code extra} are JSON values as Jackson reads them: {@code String},
 * {@code Boolean}, {@code null}, numbers, {@code List} and {@code Map} with string keys. Numbers are kept in one
 * canonical form so that a file reads back equal to what was written: whole numbers as the smallest of
 * {@code Integer}, {@code Long}, {@code BigInteger} that holds them; other numbers as {@code Double} when a double
 * holds the value exactly (as its shortest decimal form), else as a {@code BigDecimal} with at least one decimal
 * place. Timestamps are kept to the millisecond, the precision of the file, and must fall in the years 0000 to
 * 9999, the range RFC 3339 can write.
 *
 * @param id         {@code mem_<uuid>}, the file name without {@code .md}; see {@link MemoryFileCodec#checkId}
 * @param key        the memory's key, as written (the store checks the key rules); empty if the file has none, as
 *                   seed 000 and 003 write them, until the store gives it the key of its chain ({@link DerivedKeys})
 * @param createdAt  when the memory was first created
 * @param updatedAt  when this version was written
 * @param version    1 for the first version, one more for each later one
 * @param scope      {@code project}, {@code global} or {@code session} as written, if the file says
 * @param category   a free-form category, if any
 * @param tags       the tags, in file order
 * @param metadata   JSON-compatible metadata, in file order
 * @param supersedes the id of the version this one replaces; empty for version 1
 * @param related    the relations to other memories, in file order
 * @param sessionId  the session that wrote this version, if recorded
 * @param trigger    what prompted the memory, if recorded
 * @param tombstone  whether this version records a deletion (its body is then empty)
 * @param replaces   written by a restore on the head of the chain it wrote: the ids of the versions of the chain it
 *                   replaced (the old head first), which no longer count as heads and whose relations by id now reach
 *                   this version; empty otherwise
 * @param committedBy written by a restore on the older versions of the chain it writes, until the chain's head exists:
 *                   the id of that head. While no such file is present the version belongs to an unfinished restore
 *                   and is ignored. Removed once the head is written
 * @param extra      front-matter fields this version does not know, in file order, kept on rewrite
 * @param body       the markdown body: the memory's value
 */
public record MemoryFile(String id, String key, Instant createdAt, Instant updatedAt, long version,
        Optional<String> scope, Optional<String> category, List<String> tags, Map<String, Object> metadata,
        Optional<String> supersedes, List<RelatedItem> related, Optional<String> sessionId, Optional<String> trigger,
        boolean tombstone, List<String> replaces, Optional<String> committedBy, Map<String, Object> extra,
        String body) {

    /** The front-matter fields this version knows, in the order they are written. */
    public static final List<String> FIELD_NAMES = List.of("id", "key", "created_at", "updated_at", "version",
            "scope", "category", "tags", "metadata", "supersedes", "replaces", "committed_by", "related", "session_id", "trigger",
            "tombstone");

    /**
     * How deeply containers may nest, counting each field's value as level 1 (the {@code metadata} map itself is
     * level 1, a map inside it level 2). Deeper data is almost surely a mistake, and the YAML reader has a limit.
     */
    public static final int MAX_DEPTH = 64;

    /** The earliest timestamp a file can hold: RFC 3339 writes four-digit years. */
    static final Instant EARLIEST = Instant.parse("0000-01-01T00:00:00Z");
    /** The latest timestamp a file can hold. */
    static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");

    private static final Set<String> KNOWN = Set.copyOf(FIELD_NAMES);

    /**
     * Checks and copies every component.
     *
     * @throws NullPointerException     if a component is null
     * @throws IllegalArgumentException if the id, {@code supersedes}, {@code replaces} or {@code committedBy} is not a safe id, the version is below 1, a
     *                                  timestamp is outside years 0000 to 9999, a value is not JSON-compatible or
     *                                  nests too deep, or {@code extra} uses a known field name
     */
    public MemoryFile {
        MemoryFileCodec.checkId(id);
        Objects.requireNonNull(key, "key");
        createdAt = timestamp(createdAt, "created_at");
        updatedAt = timestamp(updatedAt, "updated_at");
        if (version < 1) {
            throw new IllegalArgumentException("version must be 1 or more, not " + version);
        }
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(category, "category");
        tags = List.copyOf(tags);
        metadata = copyMap(metadata, "metadata", 1);
        Objects.requireNonNull(supersedes, "supersedes").ifPresent(MemoryFileCodec::checkId);
        replaces = List.copyOf(replaces);
        replaces.forEach(MemoryFileCodec::checkId);
        Objects.requireNonNull(committedBy, "committedBy").ifPresent(MemoryFileCodec::checkId);
        related = List.copyOf(related);
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(trigger, "trigger");
        extra = copyFields(extra, KNOWN, "extra", 1);
        Objects.requireNonNull(body, "body");
    }

    /** Shows what identifies the file, never the body or metadata values, which may be private. */
    @Override
    public String toString() {
        return "MemoryFile[id=" + id + ", version=" + version + (tombstone ? ", tombstone" : "") + ", tags=" + tags.size()
                + ", metadata keys=" + metadata.keySet() + ", related=" + related.size() + ", extra fields="
                + extra.keySet() + ", body=" + body.length() + " chars]";
    }

    /** Truncates to the millisecond and checks the range RFC 3339 can write. */
    static Instant timestamp(Instant instant, String field) {
        Instant millis = Objects.requireNonNull(instant, field).truncatedTo(ChronoUnit.MILLIS);
        if (millis.isBefore(EARLIEST) || millis.isAfter(LATEST)) {
            throw new IllegalArgumentException(field + " must be in the years 0000 to 9999, not " + instant);
        }
        return millis;
    }

    /** An unmodifiable, ordered deep copy of a map of unknown fields, none of which may be a known field name. */
    static Map<String, Object> copyFields(Map<String, ?> fields, Set<String> known, String what, int depth) {
        Objects.requireNonNull(fields, what);
        for (String name : fields.keySet()) {
            if (known.contains(name)) {
                throw new IllegalArgumentException(what + " must not hold the known field '" + name + "'");
            }
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        fields.forEach((name, value) -> copy.put(Objects.requireNonNull(name, what + " field name"),
                copyValue(value, what + "." + name, depth)));
        return Collections.unmodifiableMap(copy);
    }

    /** An unmodifiable, ordered deep copy of a JSON object at nesting level {@code depth}. */
    static Map<String, Object> copyMap(Map<?, ?> map, String where, int depth) {
        Objects.requireNonNull(map, where);
        checkDepth(where, depth);
        Map<String, Object> copy = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (!(entry.getKey() instanceof String name)) {
                throw new IllegalArgumentException(where + " has a key that is not a string");
            }
            copy.put(name, copyValue(entry.getValue(), where + "." + name, depth + 1));
        }
        return Collections.unmodifiableMap(copy);
    }

    /**
     * A JSON value, checked and copied; containers become unmodifiable and numbers canonical.
     *
     * @param depth the nesting level a container here would have
     */
    static Object copyValue(Object value, String where, int depth) {
        if (value == null || value instanceof String || value instanceof Boolean) {
            return value;
        }
        if (value instanceof Number number) {
            return canonicalNumber(number, where);
        }
        if (value instanceof Map<?, ?> map) {
            return copyMap(map, where, depth);
        }
        if (value instanceof List<?> list) {
            checkDepth(where, depth);
            List<Object> copy = new ArrayList<>(list.size());
            for (Object element : list) {
                copy.add(copyValue(element, where + "[]", depth + 1));
            }
            return Collections.unmodifiableList(copy);
        }
        throw new IllegalArgumentException(where + " holds a " + value.getClass().getName()
                + "; only strings, numbers, booleans, null, lists and maps can be written");
    }

    private static void checkDepth(String where, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException(where + " nests lists and maps more than " + MAX_DEPTH + " deep");
        }
    }

    /**
     * The canonical form of a number (see the class comment), so that equal values written and read back compare
     * equal whatever type the caller used.
     *
     * @throws IllegalArgumentException for NaN, infinities and number types JSON has no counterpart for
     */
    static Number canonicalNumber(Number number, String where) {
        if (number instanceof Integer || number instanceof Long || number instanceof Short || number instanceof Byte) {
            long value = number.longValue();
            return value == (int) value ? (Number) (int) value : (Number) value;
        }
        if (number instanceof BigInteger big) {
            int bits = big.bitLength();
            return bits < Integer.SIZE ? (Number) big.intValue() : bits < Long.SIZE ? (Number) big.longValue() : big;
        }
        if (number instanceof Double || number instanceof Float) {
            // Float.toString keeps the decimal a person meant (0.1f is 0.1, not 0.10000000149011612).
            double value = number instanceof Float f ? Double.parseDouble(Float.toString(f)) : number.doubleValue();
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException(where + " is not a finite number; JSON cannot hold it");
            }
            return value;
        }
        if (number instanceof BigDecimal decimal) {
            double value = decimal.doubleValue();
            if (Double.isFinite(value) && new BigDecimal(Double.toString(value)).compareTo(decimal) == 0) {
                return value == 0 ? 0.0 : value;
            }
            // A scale of 0 would be written without a decimal point and read back as a whole number.
            return decimal.scale() == 0 ? decimal.setScale(1) : decimal;
        }
        throw new IllegalArgumentException(where + " is a " + number.getClass().getName()
                + "; only Integer, Long, BigInteger, Double, Float, BigDecimal, Short and Byte can be written");
    }
}
