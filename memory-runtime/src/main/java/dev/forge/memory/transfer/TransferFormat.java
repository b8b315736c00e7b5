package dev.forge.memory.transfer;

import dev.forge.memory.InvalidRequestException;
import java.nio.file.Path;
import java.util.Locale;

/** The two shapes of the portable format: one JSON document, or JSON Lines (a header line, then a record a line). */
public enum TransferFormat {
    /** One document: header fields, {@code scopes} with an array per scope, {@code relations}. */
    JSON,
    /** JSON Lines: the header on the first line, then one entry or relation per line; for large stores. */
    JSONL;

    /** The format name as written on the command line: {@code json} or {@code jsonl}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The format of a name such as {@code json} or {@code JSONL}. */
    public static TransferFormat parse(String name) {
        for (TransferFormat format : values()) {
            if (format.id().equalsIgnoreCase(name.strip())) {
                return format;
            }
        }
        throw new InvalidRequestException("Unknown transfer format '" + name + "'; use json or jsonl.");
    }

    /** The format a file name implies: {@code .jsonl} and {@code .ndjson} are JSON Lines, anything else JSON. */
    public static TransferFormat of(Path file) {
        Path name = file.getFileName();
        String lower = name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
        return lower.endsWith(".jsonl") || lower.endsWith(".ndjson") ? JSONL : JSON;
    }
}
