package dev.forge.memory.file.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.forge.memory.EntryRef;
import dev.forge.memory.Relation;
import dev.forge.memory.spi.EntryRules;
import dev.forge.memory.spi.Keys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Every relation of the store in one JSON file, {@code <store>/relations.json}, rewritten atomically under the
 * exclusive lock:
 *
 * <pre>{@code
 * {"format":1,"relations":[{"from":{"namespace":"project/p","key":"a"},"type":"DEPENDS_ON",
 *                           "to":{"namespace":"global","key":"b"},"createdAt":"2026-01-01T00:00:00Z"}]}
 * }</pre>
 */
public final class RelationFile {

    /** The name of the relations file in the store directory. */
    public static final String FILE_NAME = "relations.json";

    /** One entry of the store, in any namespace. */
    public record Node(Namespace namespace, String key) {
        /** Rejects nulls. */
        public Node {
            Objects.requireNonNull(namespace, "namespace");
            Objects.requireNonNull(key, "key");
        }

        /** The entry's address as callers see it. */
        public EntryRef ref() {
            return new EntryRef(key, namespace.scope());
        }
    }

    /** One stored relation. */
    public record Edge(Node from, String type, Node to, Instant createdAt) {
        /** Rejects nulls. */
        public Edge {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(createdAt, "createdAt");
        }

        /** The relation as callers see it. */
        public Relation toRelation() {
            return new Relation(from.ref(), type, to.ref(), createdAt);
        }

        /** Whether {@code node} is one of its ends. */
        public boolean touches(Node node) {
            return from.equals(node) || to.equals(node);
        }
    }

    private final Path file;

    /** The relations file of the store in {@code store}. */
    public RelationFile(Path store) {
        this.file = store.resolve(FILE_NAME);
    }

    /** The file. */
    public Path file() {
        return file;
    }

    /**
     * Reads every relation; a missing file holds none.
     *
     * @throws EntryCodec.MalformedException if the file is damaged
     */
    public List<Edge> load() throws IOException, EntryCodec.MalformedException {
        byte[] bytes;
        try {
            if (Files.size(file) > EntryCodec.MAX_READ_BYTES * 8) {
                throw new EntryCodec.MalformedException("it is larger than any relations file this provider writes", null);
            }
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return List.of();
        }
        JsonNode root;
        try {
            root = EntryCodec.JSON.readTree(bytes);
        } catch (IOException e) {
            throw new EntryCodec.MalformedException(EntryCodec.notJson(e), e);
        }
        if (root == null || !root.isObject() || !root.path("relations").isArray()) {
            throw new EntryCodec.MalformedException("it has no 'relations' list", null);
        }
        List<Edge> edges = new ArrayList<>();
        for (JsonNode item : root.get("relations")) {
            edges.add(edge(item));
        }
        return edges;
    }

    private static Edge edge(JsonNode item) throws EntryCodec.MalformedException {
        try {
            String type = EntryRules.checkRelationType(item.path("type").textValue());
            return new Edge(node(item.path("from")), type, node(item.path("to")), Instant.parse(item.path("createdAt").asText()));
        } catch (RuntimeException e) {
            throw new EntryCodec.MalformedException("a relation is invalid (" + e.getMessage() + ")", e);
        }
    }

    private static Node node(JsonNode item) throws EntryCodec.MalformedException {
        String path = item.path("namespace").textValue();
        Namespace namespace = path == null ? null : Namespace.parse(path);
        String key = item.path("key").textValue();
        if (namespace == null || key == null) {
            throw new EntryCodec.MalformedException("a relation end has no valid namespace or key", null);
        }
        Keys.validate(key);
        return new Node(namespace, key);
    }

    private static Map<String, Object> end(Node node) {
        Map<String, Object> end = new LinkedHashMap<>();
        end.put("namespace", node.namespace().path());
        end.put("key", node.key());
        return end;
    }

    /** Replaces the file atomically with {@code edges}. */
    public void save(List<Edge> edges, boolean fsync) throws IOException {
        List<Map<String, Object>> items = new ArrayList<>(edges.size());
        for (Edge edge : edges) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("from", end(edge.from()));
            item.put("type", edge.type());
            item.put("to", end(edge.to()));
            item.put("createdAt", edge.createdAt().toString());
            items.add(item);
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("format", EntryCodec.FORMAT);
        root.put("relations", items);
        AtomicFiles.write(file.getParent(), file, EntryCodec.JSON.writeValueAsBytes(root), fsync);
    }
}
