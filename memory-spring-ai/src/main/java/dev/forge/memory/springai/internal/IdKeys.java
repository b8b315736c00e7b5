package dev.forge.memory.springai.internal;

import dev.forge.memory.EntryRules;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.Keys;
import dev.forge.memory.Limits;

/**
 * Turns an id chosen by a framework (a conversation id, a document id) into a memory key under a fixed prefix,
 * injectively: control characters and U+2028/U+2029, which keys may not hold, are written as {@code %XX} or
 * {@code %uXXXX}, and {@code %} itself as {@code %25}, so two ids never share a key. An id with an unpaired surrogate
 * cannot be stored as UTF-8 anywhere and is refused.
 */
public final class IdKeys {

    private IdKeys() {
    }

    /** The id whose key under {@code prefix} is {@code key}: the inverse of {@link #key}. */
    public static String id(String prefix, String key) {
        String escaped = key.substring(prefix.length());
        StringBuilder id = new StringBuilder(escaped.length());
        for (int i = 0; i < escaped.length(); i++) {
            char c = escaped.charAt(i);
            boolean unicode = c == '%' && escaped.startsWith("u", i + 1);
            int digits = unicode ? 4 : 2;
            int start = i + (unicode ? 2 : 1);
            if (c != '%' || start + digits > escaped.length() || !escaped.substring(start, start + digits).matches("[0-9A-F]+")) {
                id.append(c); // not an escape this class wrote (a key made by hand): kept as it is
            } else {
                id.append((char) Integer.parseInt(escaped.substring(start, start + digits), 16));
                i = start + digits - 1;
            }
        }
        return id.toString();
    }

    /**
     * The key of {@code id} under {@code prefix}.
     *
     * @param what what the id is, for messages ("conversation id")
     * @throws InvalidRequestException if the id is empty or the key would be over {@link Limits#MAX_KEY_LENGTH}
     */
    public static String key(String prefix, String id, String what) {
        if (id == null || id.isEmpty()) {
            throw new InvalidRequestException("A " + what + " must not be empty.");
        }
        int unpaired = EntryRules.firstUnpairedSurrogate(id);
        if (unpaired >= 0) {
            throw new InvalidRequestException("The " + what + " '" + Keys.abbreviate(id) + "' holds an unpaired surrogate at index "
                    + unpaired + "; it cannot be stored as UTF-8. Use an id of well-formed text.");
        }
        StringBuilder key = new StringBuilder(prefix.length() + id.length()).append(prefix);
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c == '%' || Character.isISOControl(c)) {
                key.append('%').append(String.format("%02X", (int) c));
            } else if (c == '\u2028' || c == '\u2029') {
                key.append("%u").append(String.format("%04X", (int) c));
            } else {
                key.append(c);
            }
        }
        String result = key.toString();
        int length = result.codePointCount(0, result.length());
        if (length > Limits.MAX_KEY_LENGTH) {
            throw new InvalidRequestException("The " + what + " '" + Keys.abbreviate(id) + "' makes a memory key of " + length
                    + " characters; the limit is " + Limits.MAX_KEY_LENGTH + ". Use a shorter " + what + ".");
        }
        return Keys.validate(result);
    }
}
