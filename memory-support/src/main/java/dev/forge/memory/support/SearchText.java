package dev.forge.memory.support;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.spi.Setting;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a provider indexes of an entry besides its value: the {@code search_fields} setting, a list of {@code key},
 * {@code tags} and {@code metadata.<name>} (a top-level metadata field). The value is always indexed. The default,
 * {@code [key, tags]}, is the text every provider indexed before the setting existed, so a store that does not set it
 * keeps its index.
 *
 * <p>{@link #text} is the one text keyword search scores and embedding models embed: each field on a line of its own,
 * in the order configured, then the value. Tags are joined with spaces; a metadata value is rendered as its text (a
 * string as itself, a number in plain notation, a list or object as the text of its values); a missing or null field
 * adds nothing.
 */
public final class SearchText {

    /** The config key of the setting. */
    public static final String SETTING = "search_fields";

    /** The prefix of a metadata field in the setting. */
    public static final String METADATA = "metadata.";

    /** {@code [key, tags]}: the key, the tags and the value, as before the setting existed. */
    public static final SearchText DEFAULT = new SearchText(List.of("key", "tags"));

    private final List<String> fields;

    private SearchText(List<String> fields) {
        this.fields = List.copyOf(fields);
    }

    /**
     * The setting from its config form. Repeated items count once.
     *
     * @throws ConfigurationException naming {@value #SETTING} and the allowed forms, for an item that is none of them
     */
    public static SearchText of(List<String> fields) {
        if (fields == null) {
            return DEFAULT;
        }
        LinkedHashSet<String> distinct = new LinkedHashSet<>();
        for (String field : fields) {
            distinct.add(check(field));
        }
        return new SearchText(new ArrayList<>(distinct));
    }

    /**
     * The setting as config binds it: a list, or one string of items separated by commas, brackets allowed
     * ({@code "key, tags"}, {@code "[key, tags]"}: how a template or an environment variable writes it).
     *
     * @throws ConfigurationException for anything else, or an item that is not an allowed form
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static SearchText parse(Object value) {
        if (value == null || value instanceof List<?>) {
            return value == null ? DEFAULT : of(((List<?>) value).stream().map(v -> v == null ? null : String.valueOf(v)).toList());
        }
        if (value instanceof String text) {
            String inner = text.strip();
            if (inner.startsWith("[") && inner.endsWith("]")) {
                inner = inner.substring(1, inner.length() - 1);
            }
            return of(inner.isBlank() ? List.of() : java.util.Arrays.stream(inner.split(",")).map(String::strip).toList());
        }
        throw new ConfigurationException("'" + SETTING + "' must be a list such as [key, tags, metadata.topic], not "
                + value + ".");
    }

    private static String check(String field) {
        if ("key".equals(field) || "tags".equals(field)
                || field != null && field.startsWith(METADATA) && !field.substring(METADATA.length()).isBlank()
                && field.chars().noneMatch(Character::isISOControl)) {
            return field;
        }
        String why = "value".equals(field) ? " (the value is always indexed: leave it out)" : "";
        throw new ConfigurationException("'" + SETTING + "' cannot hold '" + field + "'" + why + ": each item is key, "
                + "tags or metadata.<name> (a top-level metadata field), for example [key, tags, metadata.topic].");
    }

    /** The items, as configured: what config writes back and what an index records to notice a change. */
    @JsonValue
    public List<String> fields() {
        return fields;
    }

    /** Whether this is the {@link #DEFAULT} text. */
    public boolean isDefault() {
        return equals(DEFAULT);
    }

    /** Whether {@code field} ({@code key}, {@code tags} or {@code metadata.<name>}) is indexed. */
    public boolean includes(String field) {
        return fields.contains(field);
    }

    /** The items naming metadata fields, in order. */
    public List<String> metadataFields() {
        return fields.stream().filter(f -> f.startsWith(METADATA)).toList();
    }

    /** The text indexed for {@code entry}: each configured field on its own line (a missing one adds nothing), then the value. */
    public String text(MemoryEntry entry) {
        return append(entry, fields, new StringBuilder()).append(entry.value()).toString();
    }

    /**
     * The text of the configured metadata fields of {@code metadata} alone, a line each: for engines that index the
     * key, tags and value themselves (SQLite's FTS5 columns).
     */
    public String metadataText(Map<String, Object> metadata) {
        StringBuilder text = new StringBuilder();
        for (String field : metadataFields()) {
            appendMetadata(metadata, field, text);
        }
        return text.toString();
    }

    private static StringBuilder append(MemoryEntry entry, List<String> fields, StringBuilder text) {
        for (String field : fields) {
            switch (field) {
                case "key" -> text.append(entry.key()).append('\n');
                case "tags" -> text.append(String.join(" ", entry.tags())).append('\n');
                default -> appendMetadata(entry.metadata(), field, text);
            }
        }
        return text;
    }

    private static void appendMetadata(Map<String, Object> metadata, String field, StringBuilder text) {
        StringBuilder value = new StringBuilder();
        render(metadata.get(field.substring(METADATA.length())), value);
        if (value.length() > 0) {
            text.append(value).append('\n');
        }
    }

    private static void render(Object value, StringBuilder into) {
        if (value == null) {
            return;
        }
        Collection<?> parts = value instanceof Map<?, ?> map ? map.values() : value instanceof Collection<?> c ? c : null;
        if (parts != null) {
            for (Object part : parts) {
                render(part, into);
            }
            return;
        }
        String text = value instanceof BigDecimal d ? d.toPlainString()
                : value instanceof Double || value instanceof Float ? BigDecimal.valueOf(((Number) value).doubleValue())
                        .stripTrailingZeros().toPlainString()
                : String.valueOf(value);
        if (!text.isEmpty()) {
            into.append(into.length() > 0 ? " " : "").append(text);
        }
    }

    /** The setting described for templates, at its default. */
    public static Setting setting() {
        return Setting.of(SETTING, "list", "[key, tags]", "what is indexed for search besides the value: key, tags, "
                + "metadata.<name>; a change needs 'forge-memory reindex' where the provider says so");
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SearchText that && fields.equals(that.fields);
    }

    @Override
    public int hashCode() {
        return Objects.hash(fields);
    }

    @Override
    public String toString() {
        return SETTING + " " + fields;
    }
}
