package dev.forge.memory.transfer;

import dev.forge.memory.EntryRules;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.Keys;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How the knowledge graph of the official MCP memory server ({@code @modelcontextprotocol/server-memory}, its
 * {@code memory.jsonl}) maps onto entries and relations; the one place both the importer and
 * {@code dev.forge.memory.knowledge.KnowledgeGraph} take it from.
 *
 * <ul>
 *   <li>An entity is one entry. Its key is {@code entity:} plus the name, with {@code %}, control characters and the
 *       line and paragraph separators written as {@code %} and four hex digits (so {@code a\nb} is
 *       {@code entity:a%000Ab}); a name whose key would pass {@value Limits#MAX_KEY_LENGTH} characters gets
 *       {@code entity#} plus the SHA-256 of the name instead. Distinct names get distinct keys.</li>
 *   <li>The value holds the observations, in order, one a line as a markdown list item ({@code - }); inside an
 *       observation {@code \} is written {@code \\}, a line feed {@code \n}, a carriage return {@code \r}, U+2028 and
 *       U+2029 {@code \u2028} and {@code \u2029}. Keyword search finds an entity by its observations.</li>
 *   <li>The metadata holds {@code entityName} and {@code entityType} exactly; an entry is an entity when its key has
 *       the entity prefix and both fields are strings.</li>
 *   <li>A relation is a relation of the graph facet between the two entities' entries. A relation type that is
 *       already a valid forge-memory type without {@code __} is kept as it is ({@code works_at}); any other is written
 *       {@code x__} plus the type with every character but a letter or digit as {@code _}, its hex code point,
 *       {@code _} ({@code works at} is {@code x__works_20_at}), at most 64 characters.</li>
 * </ul>
 * Text with an unpaired surrogate (possible in JSON, not in UTF-8) is refused.
 */
public final class McpMemoryFormat {

    /** The key prefix of an entity whose name fits in its key. */
    public static final String KEY_PREFIX = "entity:";
    /** The key prefix of an entity whose name is too long for its key: the SHA-256 of the name follows. */
    public static final String DIGEST_KEY_PREFIX = "entity#";
    /** The metadata field holding the entity's name. */
    public static final String NAME_FIELD = "entityName";
    /** The metadata field holding the entity's type. */
    public static final String TYPE_FIELD = "entityType";

    private static final String ESCAPED_TYPE_PREFIX = "x__";
    private static final Pattern PLAIN_TYPE = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,63}");
    private static final String ITEM = "- ";

    private McpMemoryFormat() {
    }

    /**
     * The key of the entity named {@code name}.
     *
     * @throws InvalidRequestException if the name holds an unpaired surrogate
     */
    public static String key(String name) {
        checkText(name, "entity name");
        StringBuilder key = new StringBuilder(KEY_PREFIX.length() + name.length()).append(KEY_PREFIX);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '%' || Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                key.append('%').append(String.format("%04X", (int) c));
            } else {
                key.append(c);
            }
        }
        if (key.codePointCount(0, key.length()) <= Limits.MAX_KEY_LENGTH) {
            return key.toString();
        }
        return DIGEST_KEY_PREFIX + sha256(name);
    }

    /** Whether {@code entry} is an entity: an entity key and the two metadata fields. */
    public static boolean isEntity(MemoryEntry entry) {
        return (entry.key().startsWith(KEY_PREFIX) || entry.key().startsWith(DIGEST_KEY_PREFIX))
                && entry.metadata().get(NAME_FIELD) instanceof String && entry.metadata().get(TYPE_FIELD) instanceof String;
    }

    /** The name of an entity ({@link #isEntity}). */
    public static String name(MemoryEntry entity) {
        return (String) entity.metadata().get(NAME_FIELD);
    }

    /** The type of an entity ({@link #isEntity}). */
    public static String entityType(MemoryEntry entity) {
        return (String) entity.metadata().get(TYPE_FIELD);
    }

    /**
     * The metadata of an entity.
     *
     * @throws InvalidRequestException if the name or type holds an unpaired surrogate
     */
    public static Map<String, Object> metadata(String name, String entityType) {
        checkText(name, "entity name");
        checkText(entityType, "entity type");
        return Map.of(NAME_FIELD, name, TYPE_FIELD, entityType);
    }

    /**
     * The value holding {@code observations}, in order.
     *
     * @throws InvalidRequestException if an observation holds an unpaired surrogate
     */
    public static String value(List<String> observations) {
        StringBuilder value = new StringBuilder();
        for (String observation : observations) {
            checkText(observation, "observation");
            if (value.length() > 0) {
                value.append('\n');
            }
            value.append(ITEM);
            for (int i = 0; i < observation.length(); i++) {
                char c = observation.charAt(i);
                switch (c) {
                    case '\\' -> value.append("\\\\");
                    case '\n' -> value.append("\\n");
                    case '\r' -> value.append("\\r");
                    case '\u2028' -> value.append("\\u2028");
                    case '\u2029' -> value.append("\\u2029");
                    default -> value.append(c);
                }
            }
        }
        return value.toString();
    }

    /**
     * The observations a value holds, in order. Lenient with values edited by hand: a line without {@code - } is an
     * observation as it stands, an empty line is none, a lone {@code -} is an empty observation (an editor may trim
     * the space).
     */
    public static List<String> observations(String value) {
        List<String> observations = new ArrayList<>();
        if (value.isEmpty()) {
            return observations;
        }
        for (String line : value.split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            String item = line.startsWith(ITEM) ? line.substring(ITEM.length()) : line.equals("-") ? "" : line;
            observations.add(unescape(item));
        }
        return observations;
    }

    private static String unescape(String item) {
        if (item.indexOf('\\') < 0) {
            return item;
        }
        StringBuilder out = new StringBuilder(item.length());
        for (int i = 0; i < item.length(); i++) {
            char c = item.charAt(i);
            if (c != '\\' || i + 1 == item.length()) {
                out.append(c);
                continue;
            }
            char next = item.charAt(++i);
            switch (next) {
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 'u' -> {
                    if (item.startsWith("2028", i + 1) || item.startsWith("2029", i + 1)) {
                        out.append((char) Integer.parseInt(item.substring(i + 1, i + 5), 16));
                        i += 4;
                    } else {
                        out.append('\\').append(next);
                    }
                }
                case '\\' -> out.append('\\');
                default -> out.append('\\').append(next);
            }
        }
        return out.toString();
    }

    /**
     * The forge-memory relation type of an official relation type; see the class comment.
     *
     * @throws InvalidRequestException if the type, once written so, is over 64 characters, or holds an unpaired surrogate
     */
    public static String relationType(String official) {
        checkText(official, "relation type");
        if (PLAIN_TYPE.matcher(official).matches() && !official.contains("__")) {
            return official;
        }
        StringBuilder type = new StringBuilder(ESCAPED_TYPE_PREFIX);
        official.codePoints().forEach(c -> {
            if (c < 0x80 && Character.isLetterOrDigit(c)) {
                type.appendCodePoint(c);
            } else {
                type.append('_').append(Integer.toHexString(c)).append('_');
            }
        });
        if (type.length() > 64) {
            throw new InvalidRequestException("The relation type '" + Keys.abbreviate(official) + "' takes " + type.length()
                    + " characters as a forge-memory relation type (" + type + "...: every character but a letter or"
                    + " digit takes 3 or more); the limit is 64. Use a shorter relation type, such as 'works_at'.");
        }
        return type.toString();
    }

    /** The official relation type a forge-memory relation type stands for; the reverse of {@link #relationType}. */
    public static String officialRelationType(String type) {
        if (!type.startsWith(ESCAPED_TYPE_PREFIX)) {
            return type;
        }
        StringBuilder official = new StringBuilder();
        for (int i = ESCAPED_TYPE_PREFIX.length(); i < type.length(); i++) {
            char c = type.charAt(i);
            if (c != '_') {
                official.append(c);
                continue;
            }
            int end = type.indexOf('_', i + 1);
            // A type made some other way (through relate directly) that only looks escaped stands for itself.
            try {
                official.appendCodePoint(Integer.parseInt(type.substring(i + 1, end), 16));
            } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
                return type;
            }
            i = end;
        }
        return official.toString();
    }

    private static void checkText(String text, String what) {
        java.util.Objects.requireNonNull(text, what);
        int unpaired = EntryRules.firstUnpairedSurrogate(text);
        if (unpaired >= 0) {
            throw new InvalidRequestException("The " + what + " '" + Keys.abbreviate(text) + "' holds an unpaired surrogate at"
                    + " index " + unpaired + ", which UTF-8 cannot hold; remove it.");
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
