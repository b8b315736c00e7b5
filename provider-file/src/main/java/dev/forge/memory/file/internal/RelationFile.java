package dev.forge.memory.file.internal;

import dev.forge.memory.support.files.AtomicFiles;
import com.fasterxml.jackson.databind.JsonNode;
import dev.forge.memory.EntryRef;
import dev.forge.memory.Relation;
import dev.forge.memory.EntryRules;
import dev.forge.memory.Keys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

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
    }

    private static final int MAX_BYTES = (int) (EntryCodec.MAX_READ_BYTES * 8);

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
        if (!Files.isRegularFile(file)) {
            if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                return List.of();
            }
            throw new EntryCodec.MalformedException("it is not a regular file", null);
        }
        byte[] bytes;
        try {
            bytes = AtomicFiles.readAtMost(file, MAX_BYTES);
        } catch (IOException e) {
            Optional<String> problem = EntryFiles.readFailure(file, e);
            if (problem.isEmpty()) {
                return List.of();
            }
            throw new EntryCodec.MalformedException(problem.get(), e);
        }
        if (bytes.length > MAX_BYTES) {
            throw new EntryCodec.MalformedException("it is larger than any relations file this provider writes", null);
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

    /**
     * Replaces the file atomically with {@code edges}; undone (the previous file put back) if the write fails
     * later. Rewrites every relation: fine for the few hundred a project has, the first thing to change if stores
     * get many more.
     */
    public void save(List<Edge> edges, boolean fsync, FileChanges changes) throws IOException {
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
        byte[] bytes = EntryCodec.JSON.writeValueAsBytes(root);
        Path store = file.getParent();
        if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            Path backup = AtomicFiles.tempName(store);
            AtomicFiles.link(file, backup, store, false);
            changes.onUndo(() -> Files.deleteIfExists(backup));
            changes.onComplete(() -> Files.deleteIfExists(backup));
            AtomicFiles.put(store, file, bytes, fsync);
            changes.onUndo(() -> {
                AtomicFiles.link(backup, file, store, fsync);
                if (fsync) {
                    AtomicFiles.syncDirectory(store);
                }
            });
        } else {
            AtomicFiles.put(store, file, bytes, fsync);
            changes.onUndo(() -> Files.deleteIfExists(file));
        }
        if (fsync) {
            AtomicFiles.syncDirectory(store);
        }
    }
}
