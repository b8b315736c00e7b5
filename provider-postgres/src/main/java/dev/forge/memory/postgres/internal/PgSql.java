package dev.forge.memory.postgres.internal;

import dev.forge.memory.Direction;
import dev.forge.memory.Filter;
import dev.forge.memory.KeyPattern;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.Traversal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The SQL of queries, searches and traversals. A query's SQL narrows the rows by index (namespace, key, tag, an
 * indexed metadata field) and orders them as the API does; the API's own {@link Query#matches} decides: the rows are
 * candidates, never fewer than the matches.
 */
final class PgSql {

    /** SQL text with its parameters, in order. */
    record Bound(String sql, List<Object> parameters) {
    }

    /** The condition that an entry of alias {@code a} is visible to a provider of one project and session: two parameters. */
    static String visible(String a) {
        return "(" + a + ".scope = 'global' OR (" + a + ".project = ? AND (" + a + ".scope = 'project' OR " + a
                + ".session = ?)))";
    }

    private PgSql() {
    }

    /** The candidates of {@code query}: entries of its scopes narrowed by key, tags and string metadata equality. */
    static Bound query(Query query, String project, String session) {
        List<Object> parameters = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT ").append(PgRows.ENTRY_COLUMNS).append(" FROM entries e WHERE (");
        namespaces(query.scopes(), project, session, sql, parameters);
        sql.append(")");
        KeyPattern pattern = query.pattern();
        switch (pattern.kind()) {
            case EXACT -> {
                sql.append(" AND e.key = ?");
                parameters.add(pattern.literals().get(0));
            }
            case TAG -> {
                sql.append(" AND EXISTS (SELECT 1 FROM tags t WHERE t.entry_id = e.id AND t.tag = ?)");
                parameters.add(pattern.tagName());
            }
            default -> {
                // a key range, which the (…, key COLLATE "C") index serves; starts_with would scan the namespace
                String prefix = pattern.literalPrefix();
                if (prefix != null && !prefix.isEmpty()) {
                    sql.append(" AND e.key >= ?");
                    parameters.add(prefix);
                    successor(prefix).ifPresent(above -> {
                        sql.append(" AND e.key < ?");
                        parameters.add(above);
                    });
                }
            }
        }
        filter(query.filter(), sql, parameters);
        sql.append(orderBy(query));
        return new Bound(sql.toString(), List.copyOf(parameters));
    }

    /** The order of scopes among tied keys: their declaration order, as {@link Query.Order} has it. */
    static final String SCOPE_RANK = "CASE e.scope WHEN 'session' THEN 0 WHEN 'project' THEN 1 ELSE 2 END";

    /**
     * {@code ORDER BY} in the API's order of {@code query} ({@link Query.Order#comparator()}): keys compare in code point
     * order as the key column's collation "C" does on UTF-8; the scope breaks ties only where the query reads several
     * (with one, the (namespace, key) index gives the order, and a prefix query needs no sort).
     */
    static String orderBy(Query query) {
        String scope = query.scopes().size() > 1 ? ", " + SCOPE_RANK : "";
        return switch (query.order()) {
            case KEY -> " ORDER BY e.key" + scope;
            case KEY_DESC -> " ORDER BY e.key DESC" + (scope.isEmpty() ? "" : scope + " DESC");
            case UPDATED_DESC -> " ORDER BY e.updated_at DESC, e.key" + scope;
            case UPDATED_ASC -> " ORDER BY e.updated_at, e.key" + scope;
        };
    }

    /**
     * The least string above every string that starts with {@code prefix}, in code point order (the order of UTF-8 bytes,
     * which collation "C" compares): the prefix with its last code point raised by one, or, where that is the highest
     * code point, the same for the prefix without it; empty when every code point is the highest.
     */
    static Optional<String> successor(String prefix) {
        int[] points = prefix.codePoints().toArray();
        for (int i = points.length - 1; i >= 0; i--) {
            int next = points[i] + 1;
            if (next == Character.MIN_SURROGATE) {
                next = Character.MAX_SURROGATE + 1;
            }
            if (next <= Character.MAX_CODE_POINT) {
                points[i] = next;
                return Optional.of(new String(points, 0, i + 1));
            }
        }
        return Optional.empty();
    }

    /** {@code (ns1) OR (ns2) ...} over the scopes given. */
    static void namespaces(Iterable<Scope> scopes, String project, String session, StringBuilder sql, List<Object> parameters) {
        boolean first = true;
        for (Scope scope : Scope.values()) {
            boolean wanted = false;
            for (Scope s : scopes) {
                wanted |= s == scope;
            }
            if (!wanted) {
                continue;
            }
            sql.append(first ? "(" : " OR (").append(Ns.condition("e")).append(")");
            Ns.of(scope, project, session).addTo(parameters);
            first = false;
        }
        if (first) {
            sql.append("FALSE");
        }
    }

    /**
     * Conditions that narrow to the filter's matches: tags and times exactly; equality on string metadata (what
     * index(field) serves) to a superset, as the text of a field may equal the string while its JSON value is a number.
     */
    static void filter(Filter filter, StringBuilder sql, List<Object> parameters) {
        for (String tag : filter.tags()) {
            sql.append(" AND EXISTS (SELECT 1 FROM tags t WHERE t.entry_id = e.id AND t.tag = ?)");
            parameters.add(tag);
        }
        for (Map.Entry<String, Object> field : filter.metadata().entrySet()) {
            if (field.getValue() instanceof String text && text.indexOf('\u0000') < 0 && field.getKey().indexOf('\u0000') < 0) {
                sql.append(" AND ").append(metadataField(field.getKey())).append(" = ?");
                parameters.add(text);
            }
        }
        // a filter's instants are whole milliseconds, as stored
        filter.updatedAfter().ifPresent(after -> {
            sql.append(" AND e.updated_at > ?");
            parameters.add(after.toEpochMilli());
        });
        filter.updatedBefore().ifPresent(before -> {
            sql.append(" AND e.updated_at < ?");
            parameters.add(before.toEpochMilli());
        });
    }

    /**
     * The expression of top-level metadata field {@code name} of alias {@code e}, with the name as a literal: an
     * expression index serves a query only when the query's expression is the same, constant included.
     */
    static String metadataField(String name) {
        return "metadata_field(e.metadata, '" + name.replace("'", "''") + "')";
    }

    /**
     * The edges a traversal from entry id {@code start} may follow: a recursive query collects the entries reachable
     * within the depth over visible entries and wanted types, then every such edge of them.
     */
    static Bound traverse(long start, Traversal traversal, String project, String session) {
        List<Object> parameters = new ArrayList<>();
        List<String> types = List.copyOf(new TreeSet<>(traversal.types()));
        String typeCondition = types.isEmpty() ? "" : " AND ed.type IN (" + String.join(", ", types.stream().map(t -> "?").toList()) + ")";
        boolean out = traversal.direction() != Direction.INCOMING;
        boolean in = traversal.direction() != Direction.OUTGOING;
        String directed = out && in
                ? "(SELECT from_entry AS a, to_entry AS b, type FROM edges UNION ALL SELECT to_entry, from_entry, type FROM edges)"
                : out ? "(SELECT from_entry AS a, to_entry AS b, type FROM edges)"
                : "(SELECT to_entry AS a, from_entry AS b, type FROM edges)";
        StringBuilder sql = new StringBuilder("WITH RECURSIVE reach(id, depth) AS (SELECT ?::bigint, 0 UNION SELECT ed.b,"
                + " r.depth + 1 FROM reach r JOIN " + directed + " ed ON ed.a = r.id JOIN entries o ON o.id = ed.b"
                + " WHERE r.depth < ? AND " + visible("o") + typeCondition + ")\n");
        parameters.add(start);
        parameters.add(traversal.maxDepth() - 1);
        parameters.add(project);
        parameters.add(session);
        parameters.addAll(types);
        String reached = "(SELECT DISTINCT id FROM reach)";
        List<String> selects = new ArrayList<>();
        if (out) {
            selects.add("SELECT " + RELATION_COLUMNS + " FROM edges ed " + RELATION_JOINS + " WHERE ed.from_entry IN "
                    + reached + " AND " + visible("t") + typeCondition);
            parameters.add(project);
            parameters.add(session);
            parameters.addAll(types);
        }
        if (in) {
            selects.add("SELECT " + RELATION_COLUMNS + " FROM edges ed " + RELATION_JOINS + " WHERE ed.to_entry IN "
                    + reached + " AND " + visible("f") + typeCondition);
            parameters.add(project);
            parameters.add(session);
            parameters.addAll(types);
        }
        sql.append(String.join(" UNION ", selects));
        return new Bound(sql.toString(), List.copyOf(parameters));
    }

    /** The columns of a relation row. */
    static final String RELATION_COLUMNS = "f.key AS from_key, f.scope AS from_scope, ed.type, t.key AS to_key,"
            + " t.scope AS to_scope, ed.created_at";

    /** Joins the two ends of edge alias {@code ed}. */
    static final String RELATION_JOINS = "JOIN entries f ON f.id = ed.from_entry JOIN entries t ON t.id = ed.to_entry";
}
