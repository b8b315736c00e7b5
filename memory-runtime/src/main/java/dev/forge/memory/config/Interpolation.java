package dev.forge.memory.config;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Keys;
import dev.forge.memory.spi.ProviderConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code ${NAME}} and {@code ${NAME:-default}} in config values, read from the environment. {@code $$} is a
 * literal {@code $}; a {@code $} before anything else stays as it is. Defaults may hold nested references and
 * braces; values read from the environment are used verbatim, never interpolated again. A malformed or
 * unclosed reference, an unset variable without a default, or defaults nested more than {@value #MAX_NESTING} deep
 * is a {@link ConfigurationException} naming the file and field.
 */
final class Interpolation {

    /**
     * How deep defaults may nest ({@code ${A:-${B:-x}}} is 2): each level is a recursion and a scan of the rest of
     * the text, so an unbounded depth overflows the stack and costs time in the square of the text's length.
     */
    static final int MAX_NESTING = 16;

    private final Function<String, String> environment;
    private final String source;
    private final Set<String> secretFields;

    /**
     * @param secretFields collects the paths of fields whose value came from a variable with a secret-looking
     *                     name, so that they are masked even under an innocent key
     */
    Interpolation(Function<String, String> environment, String source, Set<String> secretFields) {
        this.environment = environment;
        this.source = source;
        this.secretFields = secretFields;
    }

    /** Interpolates every string in a YAML value tree; maps keep their order. */
    Object tree(Object value, String field) {
        if (value instanceof String s) {
            return string(s, field);
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(String.valueOf(k), v == null ? null : tree(v, field + "." + k)));
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                Object item = list.get(i);
                copy.add(item == null ? null : tree(item, field + "[" + i + "]"));
            }
            return copy;
        }
        return value;
    }

    /** Interpolates one string. */
    String string(String text, String field) {
        return string(text, field, 0);
    }

    private String string(String text, String field, int depth) {
        if (depth > MAX_NESTING) {
            throw error(field, "has defaults nested more than " + MAX_NESTING + " deep (${A:-${B:-...}}); simplify it.");
        }
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '$' && i + 1 < text.length() && text.charAt(i + 1) == '$') {
                out.append('$');
                i += 2;
            } else if (c == '$' && i + 1 < text.length() && text.charAt(i + 1) == '{') {
                int close = matchingBrace(text, i + 1, field);
                out.append(reference(text.substring(i + 2, close), field, depth));
                i = close + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private int matchingBrace(String text, int open, String field) {
        int depth = 0;
        for (int i = open; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        throw error(field, "has an unclosed '${' : write ${NAME} or ${NAME:-default}, or $$ for a literal $.");
    }

    private String reference(String body, String field, int depth) {
        int end = 0;
        while (end < body.length() && (Character.isLetterOrDigit(body.charAt(end)) || body.charAt(end) == '_')) {
            end++;
        }
        String name = body.substring(0, end);
        if (name.isEmpty() || Character.isDigit(name.charAt(0)) || name.chars().anyMatch(ch -> ch > 127)) {
            throw error(field, "has a malformed reference '${" + Keys.abbreviate(body) + "}': a variable name is letters, digits and _, "
                    + "not starting with a digit.");
        }
        String rest = body.substring(end);
        if (!rest.isEmpty() && !rest.startsWith(":-")) {
            throw error(field, "has a malformed reference '${" + Keys.abbreviate(name) + rest.charAt(0) + "...}': write ${"
                    + Keys.abbreviate(name) + "} or ${" + Keys.abbreviate(name) + ":-default}.");
        }
        String value = environment.apply(name);
        if (ProviderConfig.isSecretKey(name)) {
            secretFields.add(field);
        }
        if (value != null && !(value.isEmpty() && !rest.isEmpty())) {
            return value;
        }
        if (rest.isEmpty()) {
            throw error(field, "uses ${" + name + "}, which is not set. Set the environment variable, or write ${" + name
                    + ":-default}.");
        }
        return string(rest.substring(2), field, depth + 1);
    }

    private ConfigurationException error(String field, String problem) {
        return new ConfigurationException(source + ": '" + field + "' " + problem, source, field, null);
    }
}
