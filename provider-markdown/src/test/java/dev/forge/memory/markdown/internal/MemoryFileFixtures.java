package dev.forge.memory.markdown.internal;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Builders and shortcuts shared by the memory-file tests. */
final class MemoryFileFixtures {

    static final String ID = "mem_0b9d6c1e-3f4a-4c2b-9d1e-5a6b7c8d9e0f";
    static final Instant CREATED = Instant.parse("2026-11-22T04:15:12.123Z");
    static final Instant UPDATED = Instant.parse("2026-11-23T09:30:00Z");
    static final Instant FALLBACK = Instant.parse("2026-01-01T00:00:00Z");

    private MemoryFileFixtures() {
    }

    /** A builder starting from a minimal valid file. */
    static Builder file() {
        return new Builder();
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Parses text under the name {@code ID.md}. */
    static MemoryFile parse(String text) throws MemoryFileException {
        return MemoryFileCodec.parse(utf8(text), ID + ".md", FALLBACK);
    }

    /** Writes and reads back a file under its own name. */
    static MemoryFile roundTrip(MemoryFile file) throws MemoryFileException {
        return MemoryFileCodec.parse(MemoryFileCodec.serialize(file), file.id() + ".md", FALLBACK);
    }

    /** Mutable settings for a {@link MemoryFile}; every field starts minimal. */
    static final class Builder {
        String id = ID;
        String key = "build-tool";
        Instant createdAt = CREATED;
        Instant updatedAt = CREATED;
        long version = 1;
        Optional<String> scope = Optional.empty();
        Optional<String> category = Optional.empty();
        List<String> tags = new ArrayList<>();
        Map<String, Object> metadata = new LinkedHashMap<>();
        Optional<String> supersedes = Optional.empty();
        List<RelatedItem> related = new ArrayList<>();
        Optional<String> sessionId = Optional.empty();
        Optional<String> trigger = Optional.empty();
        boolean tombstone;
        List<String> replaces = new ArrayList<>();
        Optional<String> committedBy = Optional.empty();
        Map<String, Object> extra = new LinkedHashMap<>();
        String body = "";

        Builder id(String value) {
            id = value;
            return this;
        }

        Builder key(String value) {
            key = value;
            return this;
        }

        Builder times(Instant created, Instant updated) {
            createdAt = created;
            updatedAt = updated;
            return this;
        }

        Builder version(long value) {
            version = value;
            return this;
        }

        Builder scope(String value) {
            scope = Optional.of(value);
            return this;
        }

        Builder category(String value) {
            category = Optional.of(value);
            return this;
        }

        Builder tags(String... values) {
            tags = List.of(values);
            return this;
        }

        Builder tags(List<String> values) {
            tags = values;
            return this;
        }

        Builder metadata(String name, Object value) {
            metadata.put(name, value);
            return this;
        }

        Builder supersedes(String value) {
            supersedes = Optional.of(value);
            return this;
        }

        Builder related(RelatedItem item) {
            related.add(item);
            return this;
        }

        Builder sessionId(String value) {
            sessionId = Optional.of(value);
            return this;
        }

        Builder trigger(String value) {
            trigger = Optional.of(value);
            return this;
        }

        Builder tombstone() {
            tombstone = true;
            return this;
        }

        Builder replaces(String... ids) {
            replaces = List.of(ids);
            return this;
        }

        Builder committedBy(String id) {
            committedBy = Optional.of(id);
            return this;
        }

        Builder extra(String name, Object value) {
            extra.put(name, value);
            return this;
        }

        Builder body(String value) {
            body = value;
            return this;
        }

        MemoryFile build() {
            return new MemoryFile(id, key, createdAt, updatedAt, version, scope, category, tags, metadata, supersedes,
                    related, sessionId, trigger, tombstone, replaces, committedBy, extra, body);
        }
    }
}
