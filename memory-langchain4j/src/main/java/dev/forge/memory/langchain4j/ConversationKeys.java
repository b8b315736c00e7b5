package dev.forge.memory.langchain4j;

import dev.forge.memory.Keys;
import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.Limits;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Maps a LangChain4j memory id (any object) to the key of its conversation, injectively: the key holds the id's class
 * and its text, so {@code 1} and {@code "1"} are two conversations. An id whose text is a valid key part and short
 * enough is kept readable ({@code prefix + class + "=" + text}); any other becomes {@code prefix + class + "#sha256:"
 * + digest}. Neither a class name nor the prefix ends in {@code =} or {@code #}, so the two forms never meet.
 */
final class ConversationKeys {

    private final String prefix;

    ConversationKeys(String prefix) {
        Keys.validate(Objects.requireNonNull(prefix, "prefix") + "x", "key prefix", 128);
        this.prefix = prefix;
    }

    String prefix() {
        return prefix;
    }

    /** The key of {@code memoryId}'s conversation. */
    String key(Object memoryId) {
        Objects.requireNonNull(memoryId, "memoryId");
        String text = memoryId.toString();
        if (text == null) {
            throw new IllegalArgumentException("The memory id " + memoryId.getClass().getName() + " has no text (toString() is null).");
        }
        String head = prefix + memoryId.getClass().getName();
        String readable = head + "=" + text;
        if (readable.codePointCount(0, readable.length()) <= Limits.MAX_KEY_LENGTH && isValidKey(readable)) {
            return readable;
        }
        return head + "#sha256:" + sha256(text);
    }

    private static boolean isValidKey(String key) {
        try {
            Keys.validate(key);
            return true;
        } catch (InvalidKeyException e) {
            return false;
        }
    }

    private static String sha256(String text) {
        try {
            // An unpaired surrogate becomes '?' in UTF-8; keep the id's exact code units instead.
            byte[] bytes = text.getBytes(StandardCharsets.UTF_16BE);
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java runtime has SHA-256", e);
        }
    }
}
