package dev.forge.memory.sqlite.internal;

import dev.forge.memory.Direction;
import dev.forge.memory.Filter;
import dev.forge.memory.KeyPattern;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.Traversal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The SQL the provider runs, in one place so that tests can ask SQLite for the plan of exactly these statements.
 *
 * <p>Queries and searches are translated into SQL that narrows the candidates with indexes (namespace and key,
 * key ranges, tags, metadata fields, update times); where a condition is not exact in SQL the API's own matcher then
 * decides, so the SQL never has to reproduce every rule. Where the SQL is exact for every condition its rows are the
 * result as they are (no second pass of the matcher), and with a limit or offset the SQL also orders and pages.
 */
public final class Statements {

    /** The largest whole number a JSON number is compared with in SQL; beyond it SQLite and Java may round apart. */
    private static final long EXACT_WHOLE_NUMBERS = 1L << 53;

    /** One entry by namespace and key: {@link Namespace#CONDITION} and the key. */
    public static final String GET = "SELECT e.id, " + Rows.ENTRY_COLUMNS + " FROM entries e WHERE "
            + Namespace.CONDITION + " AND e.key = ?";

    /** What a write needs to know of a key: its row (if live) and the highest version and revision ever recorded. */
    public static final String CURRENT = "SELECT v.last_version, v.revision, e.id, e.created_at, e.updated_at, e.version"
            + " FROM (SELECT max(version) AS last_version, max(id) AS revision FROM versions"
            + " WHERE project = ? AND session = ? AND scope = ? AND key = ?) v"
            + " LEFT JOIN entries e ON " + Namespace.CONDITION + " AND e.key = ?";

    /** {@link #CURRENT} with the whole entry: what a transaction sees of a key at first touch, from one snapshot. */
    public static final String TRANSACTION_READ = "SELECT v.last_version, v.revision, " + Rows.ENTRY_COLUMNS
            + " FROM (SELECT max(version) AS last_version, max(id) AS revision FROM versions"
            + " WHERE project = ? AND session = ? AND scope = ? AND key = ?) v"
            + " LEFT JOIN entries e ON " + Namespace.CONDITION + " AND e.key = ?";

    /** The id of a live entry: {@link Namespace#CONDITION} and the key. */
    public static final String ENTRY_ID = "SELECT e.id FROM entries e WHERE " + Namespace.CONDITION + " AND e.key = ?";

    /** Every version of a key but its tombstones, oldest first: {@link Namespace#CONDITION} and the key. */
    public static final String VERSIONS = "SELECT " + Rows.ENTRY_COLUMNS + " FROM versions e WHERE "
            + Namespace.CONDITION + " AND e.key = ? AND e.tombstone = 0 ORDER BY e.version";

    /** Deletes the live row of a key (its tags and relations go with it): project, session, scope, key. */
    public static final String DELETE_KEY_ENTRY =
            "DELETE FROM entries WHERE project = ? AND session = ? AND scope = ? AND key = ?";

    /** Deletes every version and tombstone of a key: project, session, scope, key. */
    public static final String DELETE_KEY_VERSIONS =
            "DELETE FROM versions WHERE project = ? AND session = ? AND scope = ? AND key = ?";

    private static final String RELATION_COLUMNS = "ed.type, ed.created_at, f.key AS from_key, f.scope AS from_scope,"
            + " t.key AS to_key, t.scope AS to_scope";
    private static final String RELATION_JOINS = "CROSS JOIN entries f ON f.id = ed.from_entry"
            + " CROSS JOIN entries t ON t.id = ed.to_entry";

    /** A visible row of alias {@code x}: GLOBAL rows and those of this project, its PROJECT and this session's rows. */
    private static String visible(String alias) {
        return alias + ".project IN ('', ?) AND " + alias + ".session IN ('', ?)";
    }

    /** Relations starting at an entry id whose other end is visible: id, project, session. */
    public static final String RELATIONS_OUTGOING = "SELECT " + RELATION_COLUMNS + " FROM edges ed " + RELATION_JOINS
            + " WHERE ed.from_entry = ? AND " + visible("t");

    /** Relations ending at an entry id whose other end is visible: id, project, session. */
    public static final String RELATIONS_INCOMING = "SELECT " + RELATION_COLUMNS + " FROM edges ed " + RELATION_JOINS
            + " WHERE ed.to_entry = ? AND " + visible("f");

    /** Both, a relation of an entry to itself once: the parameters of each, outgoing first. */
    public static final String RELATIONS_BOTH = RELATIONS_OUTGOING + " UNION " + RELATIONS_INCOMING;

    private Statements() {
    }

    /** SQL text with its parameters, in order. */
    public record Bound(String sql, List<Object> parameters) {
    }

    /**
     * A query translated: {@code exact} when the SQL selects exactly the matching entries (every condition exact), else
     * the rows are candidates, a superset of the matches; {@code paged} when the SQL also orders and pages (exact, and
     * a limit or offset given; its last two parameters are then the LIMIT and OFFSET, in stored rows), else the rows
     * come in no particular order.
     */
    public record QuerySql(String sql, List<Object> parameters, boolean exact, boolean paged) {
    }

    /** The SQL string literal of the JSON path of top-level metadata field {@code field}, if one can name it. */
    public static Optional<String> jsonPathLiteral(String field) {
        if (field.isEmpty()) {
            return Optional.empty();
        }
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '"' || c == '\\' || Character.isISOControl(c)) {
                return Optional.empty();
            }
        }
        return Optional.of("'$.\"" + field.replace("'", "''") + "\"'");
    }

    /** The name of the index on metadata field {@code field}: a digest, so the field's text never reaches an identifier. */
    public static String metadataIndexName(String field) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(field.getBytes(StandardCharsets.UTF_8));
            return "entries_metadata_" + HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** The statement creating the index on {@code field}, whose path literal is {@code pathLiteral}. */
    public static String createMetadataIndex(String field, String pathLiteral) {
        // Namespace columns first: the planner then prefers this index to entries_by_key for an equality on the field,
        // and the search stays within one namespace.
        return "CREATE INDEX IF NOT EXISTS " + metadataIndexName(field) + " ON entries (project, session, scope, json_extract(metadata, "
                + pathLiteral + "))";
    }

    // ------------------------------------------------------------------ queries

    /** Translates {@code query} for a provider of {@code project} and {@code session}. */
    public static QuerySql query(Query query, String project, String session) {
        KeyPattern pattern = query.pattern();
        Filter filter = query.filter();
        boolean exact = true;
        String drivingTag = null;
        if (pattern.kind() == KeyPattern.Kind.TAG) {
            drivingTag = pattern.tagName();
        } else if (!filter.tags().isEmpty() && pattern.kind() != KeyPattern.Kind.EXACT
                && pattern.kind() != KeyPattern.Kind.PREFIX) {
            drivingTag = filter.tags().get(0);
        }
        List<Object> parameters = new ArrayList<>();
        StringBuilder sql = new StringBuilder();
        for (Scope scope : Scope.values()) {
            if (!query.scopes().contains(scope)) {
                continue;
            }
            if (sql.length() > 0) {
                sql.append("\nUNION ALL\n");
            }
            sql.append("SELECT e.id, ").append(Rows.ENTRY_COLUMNS).append(", ").append(scope.ordinal()).append(" AS scope_rank");
            StringBuilder where = new StringBuilder();
            if (drivingTag != null) {
                sql.append(" FROM tags t CROSS JOIN entries e ON e.id = t.entry_id");
                where.append("t.tag = ? AND ");
                parameters.add(drivingTag);
            } else {
                sql.append(" FROM entries e");
            }
            where.append(Namespace.CONDITION);
            Namespace.of(scope, project, session).addTo(parameters);
            exact &= keyConditions(pattern, where, parameters);
            exact &= filterConditions(filter, drivingTag, where, parameters);
            sql.append(" WHERE ").append(where);
        }
        if (!exact || query.limit() == Query.UNLIMITED && query.offset() == 0) {
            // Without a page to cut, sorting in SQL saves nothing, and ORDER BY key would draw the planner to the key
            // index even where a tag or metadata index selects far fewer rows.
            return new QuerySql(sql.toString(), List.copyOf(parameters), exact, false);
        }
        sql.append("\nORDER BY ").append(switch (query.order()) {
            case KEY -> "key, scope_rank";
            case KEY_DESC -> "key DESC, scope_rank DESC";
            case UPDATED_DESC -> "updated_at DESC, key, scope_rank";
            case UPDATED_ASC -> "updated_at, key, scope_rank";
        });
        sql.append(" LIMIT ? OFFSET ?");
        parameters.add(query.limit());
        parameters.add(query.offset());
        return new QuerySql(sql.toString(), List.copyOf(parameters), true, true);
    }

    /** Adds the key conditions of {@code pattern}; returns whether they select exactly the matching keys. */
    private static boolean keyConditions(KeyPattern pattern, StringBuilder where, List<Object> parameters) {
        switch (pattern.kind()) {
            case ALL, TAG:
                return true;
            case EXACT:
                where.append(" AND e.key = ?");
                parameters.add(pattern.literals().get(0));
                return true;
            case PREFIX:
                keyRange(pattern.literalPrefix(), where, parameters);
                return true;
            default:
                if (!pattern.literalPrefix().isEmpty()) {
                    keyRange(pattern.literalPrefix(), where, parameters);
                }
                where.append(" AND e.key GLOB ?");
                parameters.add(glob(pattern));
                // GLOB should be exact too, but the matcher of the API has the last word on these forms.
                return false;
        }
    }

    /**
     * Keys starting with {@code prefix}: {@code prefix <= key < successor}. SQLite compares text with the BINARY
     * collation, byte by byte of UTF-8, which is code point order: the order of {@link dev.forge.memory.Keys#compareKeys}.
     */
    private static void keyRange(String prefix, StringBuilder where, List<Object> parameters) {
        where.append(" AND e.key >= ?");
        parameters.add(prefix);
        successor(prefix).ifPresent(upper -> {
            where.append(" AND e.key < ?");
            parameters.add(upper);
        });
    }

    /** The least string greater than every string starting with {@code prefix}, in code point order, if any. */
    static Optional<String> successor(String prefix) {
        int end = prefix.length();
        while (end > 0) {
            int codePoint = prefix.codePointBefore(end);
            int start = end - Character.charCount(codePoint);
            if (codePoint < Character.MAX_CODE_POINT) {
                int next = codePoint + 1 == Character.MIN_SURROGATE ? Character.MAX_SURROGATE + 1 : codePoint + 1;
                return Optional.of(prefix.substring(0, start) + new String(Character.toChars(next)));
            }
            end = start;
        }
        return Optional.empty();
    }

    /** The pattern as a SQLite GLOB, its literals' {@code * ? [} escaped as one-character classes. */
    static String glob(KeyPattern pattern) {
        StringBuilder glob = new StringBuilder();
        if (!pattern.anchoredStart()) {
            glob.append('*');
        }
        List<String> literals = pattern.literals();
        for (int i = 0; i < literals.size(); i++) {
            if (i > 0) {
                glob.append('*');
            }
            for (char c : literals.get(i).toCharArray()) {
                switch (c) {
                    case '*' -> glob.append("[*]");
                    case '?' -> glob.append("[?]");
                    case '[' -> glob.append("[[]");
                    default -> glob.append(c);
                }
            }
        }
        if (!pattern.anchoredEnd() && !literals.isEmpty()) {
            glob.append('*');
        }
        return glob.toString();
    }

    /**
     * Adds the filter's conditions (tags but {@code drivingTag}, metadata, update times); returns whether they select
     * exactly the entries the filter matches.
     */
    private static boolean filterConditions(Filter filter, String drivingTag, StringBuilder where, List<Object> parameters) {
        boolean exact = true;
        for (String tag : filter.tags()) {
            if (tag.equals(drivingTag)) {
                continue;
            }
            where.append(" AND EXISTS (SELECT 1 FROM tags x WHERE x.tag = ? AND x.entry_id = e.id)");
            parameters.add(tag);
        }
        for (Map.Entry<String, Object> condition : filter.metadata().entrySet()) {
            exact &= metadataCondition(condition.getKey(), condition.getValue(), where, parameters);
        }
        filter.updatedAfter().ifPresent(after -> {
            where.append(" AND e.updated_at > ?");
            parameters.add(after.toEpochMilli());
        });
        filter.updatedBefore().ifPresent(before -> {
            where.append(" AND e.updated_at < ?");
            parameters.add(before.toEpochMilli());
        });
        return exact;
    }

    /**
     * Adds a condition on one metadata field, written so that an index made by {@code index(field)} serves it; returns
     * whether it is exact. Text and booleans are exact (the JSON type is checked too); whole numbers narrow by value
     * (SQLite and {@link Filter} agree on equality of numbers up to 2^53, but the API's matcher decides); other values
     * (fractions, lists, maps) and fields no JSON path can name are left to the matcher alone.
     */
    private static boolean metadataCondition(String field, Object value, StringBuilder where, List<Object> parameters) {
        Optional<String> path = jsonPathLiteral(field);
        if (path.isEmpty()) {
            return false;
        }
        String extract = "json_extract(e.metadata, " + path.get() + ")";
        String type = "json_type(e.metadata, " + path.get() + ")";
        if (value instanceof String text) {
            where.append(" AND ").append(extract).append(" = ? AND ").append(type).append(" = 'text'");
            parameters.add(text);
            return true;
        }
        if (value instanceof Boolean flag) {
            where.append(" AND ").append(extract).append(" = ? AND ").append(type).append(" = ?");
            parameters.add(flag ? 1 : 0);
            parameters.add(flag ? "true" : "false");
            return true;
        }
        if (value instanceof Long whole && Math.abs(whole) <= EXACT_WHOLE_NUMBERS) {
            where.append(" AND ").append(extract).append(" = ?");
            parameters.add(whole);
            return false;
        }
        if (value instanceof Double number && number == Math.rint(number) && Math.abs(number) <= EXACT_WHOLE_NUMBERS) {
            where.append(" AND ").append(extract).append(" = ?");
            parameters.add(number.longValue());
            return false;
        }
        return false;
    }

    // ------------------------------------------------------------------ search

    /**
     * A keyword search: the FTS5 index drives, {@code bm25()} ranks (negative, lower is better), then the namespaces
     * of the requested scopes and the filter narrow. With {@code snippets}, a snippet column too, its markers and
     * length bound first. Then the statistics of the query's scale, from {@link #searchStatisticsColumn}: the entries
     * of the file and, per phrase, the rows it matches (constant subqueries, computed once, in the statement's own
     * snapshot).
     *
     * @param match the FTS5 query, which the caller builds from quoted terms only
     * @param phrases each phrase of {@code match} as an FTS5 query of its own, with the same column filter
     */
    public static Bound search(SearchRequest request, String match, List<String> phrases, String project, String session,
            boolean snippets) {
        List<Object> parameters = new ArrayList<>();
        StringBuilder sql = new StringBuilder();
        search(request, match, phrases, project, session, snippets, sql, parameters);
        return new Bound(sql.toString(), List.copyOf(parameters));
    }

    /**
     * {@link #search} cut after {@code rows} rows by a {@code LIMIT}, where the SQL applies the whole filter (else rows
     * that the API's matcher refuses would take places in the cut): then SQLite keeps only the best rows while it
     * sorts, instead of sorting every match.
     */
    public static Optional<Bound> searchLimited(SearchRequest request, String match, List<String> phrases, String project,
            String session, boolean snippets, long rows) {
        List<Object> parameters = new ArrayList<>();
        StringBuilder sql = new StringBuilder();
        if (!search(request, match, phrases, project, session, snippets, sql, parameters)) {
            return Optional.empty();
        }
        sql.append(" LIMIT ?");
        parameters.add(rows);
        return Optional.of(new Bound(sql.toString(), List.copyOf(parameters)));
    }

    /** Writes the search's SQL and parameters; returns whether the SQL applies the whole filter. */
    private static boolean search(SearchRequest request, String match, List<String> phrases, String project, String session,
            boolean snippets, StringBuilder sql, List<Object> parameters) {
        sql.append("SELECT e.id, ").append(Rows.ENTRY_COLUMNS).append(", bm25(entries_fts) AS bm25_rank");
        if (snippets) {
            sql.append(", snippet(entries_fts, -1, ?, ?, ?, ?) AS snippet");
            parameters.add(SNIPPET_OPEN);
            parameters.add(SNIPPET_CLOSE);
            parameters.add(SNIPPET_ELLIPSIS);
            parameters.add(SNIPPET_TOKENS);
        }
        sql.append(", (SELECT entries FROM entry_count WHERE id = 1)");
        for (String phrase : phrases) {
            sql.append(", (SELECT count(*) FROM entries_fts WHERE entries_fts MATCH ?)");
            parameters.add(phrase);
        }
        sql.append(" FROM entries_fts CROSS JOIN entries e ON e.id = entries_fts.rowid WHERE entries_fts MATCH ?");
        parameters.add(match);
        StringBuilder where = new StringBuilder(" AND (");
        boolean first = true;
        for (Scope scope : Scope.values()) {
            if (request.scopes().contains(scope)) {
                where.append(first ? "" : " OR ").append('(').append(Namespace.CONDITION).append(')');
                Namespace.of(scope, project, session).addTo(parameters);
                first = false;
            }
        }
        where.append(')');
        boolean exact = filterConditions(request.filter(), null, where, parameters);
        // Ties of bm25() by key, then scope in the order of Scope (not of the ids' text): the order of the hits.
        sql.append(where).append(" ORDER BY bm25(entries_fts), e.key, CASE e.scope WHEN 'session' THEN 0 WHEN 'project' THEN 1 ELSE 2 END");
        return exact;
    }

    /** The column of {@code bm25()} in the rows of {@link #search}. */
    public static final int SEARCH_BM25_COLUMN = 10;
    /** The column of the snippet in the rows of {@link #search} with snippets. */
    public static final int SEARCH_SNIPPET_COLUMN = 11;

    /**
     * The first statistics column of the rows of {@link #search}: the entries of the file, then the rows each phrase
     * matches, one column each, in the order of the phrases.
     */
    public static int searchStatisticsColumn(boolean snippets) {
        return snippets ? SEARCH_SNIPPET_COLUMN + 1 : SEARCH_SNIPPET_COLUMN;
    }

    /** The rank of a stored scope id in the order of {@link Scope}, as {@link #search} orders ties. */
    public static int scopeRank(String scopeId) {
        return switch (scopeId) {
            case "session" -> 0;
            case "project" -> 1;
            default -> 2;
        };
    }

    /** What marks the start of a matched term in a snippet. */
    public static final String SNIPPET_OPEN = "**";
    /** What marks the end of a matched term in a snippet. */
    public static final String SNIPPET_CLOSE = "**";
    /** What stands for text left out of a snippet. */
    public static final String SNIPPET_ELLIPSIS = "…";
    /** The most tokens in a snippet. */
    public static final int SNIPPET_TOKENS = 16;

    /** The FTS5 query for some terms: each a quoted FTS5 string (so no text is ever FTS syntax), any of them. */
    public static String match(List<String> terms) {
        StringBuilder match = new StringBuilder();
        for (String term : terms) {
            if (match.length() > 0) {
                match.append(" OR ");
            }
            match.append('"').append(term.replace("\"", "\"\"")).append('"');
        }
        return match.toString();
    }

    // ------------------------------------------------------------------ graph

    /**
     * The relations a traversal from entry id {@code start} may follow: a recursive CTE collects the entries within
     * {@code maxDepth - 1} steps (a cycle guard: {@code UNION} drops a repeated (entry, depth) and depth is bounded), then
     * every relation leading on from them in the traversal's direction, of its types, to visible entries.
     */
    public static Bound traverse(long start, Traversal traversal, String project, String session) {
        List<Object> parameters = new ArrayList<>();
        List<String> types = List.copyOf(new java.util.TreeSet<>(traversal.types()));
        String typeCondition = types.isEmpty() ? "" : " AND ed.type IN (" + String.join(", ", types.stream().map(t -> "?").toList()) + ")";
        boolean out = traversal.direction() != Direction.INCOMING;
        boolean in = traversal.direction() != Direction.OUTGOING;
        StringBuilder sql = new StringBuilder("WITH RECURSIVE reach(id, depth) AS (VALUES (?, 0)");
        parameters.add(start);
        if (out) {
            sql.append(" UNION SELECT ed.to_entry, r.depth + 1 FROM reach r CROSS JOIN edges ed ON ed.from_entry = r.id")
                    .append(" CROSS JOIN entries o ON o.id = ed.to_entry WHERE r.depth < ? AND ").append(visible("o")).append(typeCondition);
            parameters.add(traversal.maxDepth() - 1);
            parameters.add(project);
            parameters.add(session);
            parameters.addAll(types);
        }
        if (in) {
            sql.append(" UNION SELECT ed.from_entry, r.depth + 1 FROM reach r CROSS JOIN edges ed ON ed.to_entry = r.id")
                    .append(" CROSS JOIN entries o ON o.id = ed.from_entry WHERE r.depth < ? AND ").append(visible("o")).append(typeCondition);
            parameters.add(traversal.maxDepth() - 1);
            parameters.add(project);
            parameters.add(session);
            parameters.addAll(types);
        }
        sql.append(")\n");
        String reached = "(SELECT DISTINCT id FROM reach)";
        List<String> selects = new ArrayList<>();
        if (out) {
            selects.add("SELECT " + RELATION_COLUMNS + " FROM edges ed " + RELATION_JOINS + " WHERE ed.from_entry IN " + reached
                    + " AND " + visible("t") + typeCondition);
            parameters.add(project);
            parameters.add(session);
            parameters.addAll(types);
        }
        if (in) {
            selects.add("SELECT " + RELATION_COLUMNS + " FROM edges ed " + RELATION_JOINS + " WHERE ed.to_entry IN " + reached
                    + " AND " + visible("f") + typeCondition);
            parameters.add(project);
            parameters.add(session);
            parameters.addAll(types);
        }
        sql.append(String.join("\nUNION\n", selects));
        return new Bound(sql.toString(), List.copyOf(parameters));
    }

    // ------------------------------------------------------------------ writes, history, relations, checks

    /** Overwrites a live row: value, tags, metadata, created_at, updated_at, version, search_text, id. */
    public static final String UPDATE_ENTRY = "UPDATE entries SET value = ?, tags = ?, metadata = ?,"
            + " created_at = ?, updated_at = ?, version = ?, search_text = ? WHERE id = ?";

    /** Removes the tag rows of an entry: its id. */
    public static final String DELETE_TAGS = "DELETE FROM tags WHERE entry_id = ?";

    /** Inserts a live row: namespace, key, value, tags, metadata, created_at, updated_at, version, search_text. */
    public static final String INSERT_ENTRY = "INSERT INTO entries (project, session, scope, key, value,"
            + " tags, metadata, created_at, updated_at, version, search_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    /**
     * {@link #INSERT_ENTRY}, or where the key has a live row an update of it in place (its id kept, and so its
     * relations; the search index follows through the update trigger): the same parameters; returns the row's id.
     */
    public static final String UPSERT_ENTRY = INSERT_ENTRY + " ON CONFLICT (project, session, scope, key) DO UPDATE SET"
            + " value = excluded.value, tags = excluded.tags, metadata = excluded.metadata, created_at = excluded.created_at,"
            + " updated_at = excluded.updated_at, version = excluded.version, search_text = excluded.search_text RETURNING id";

    /** Inserts one tag row: tag, entry id. */
    public static final String INSERT_TAG = "INSERT INTO tags (tag, entry_id) VALUES (?, ?)";

    /** Appends a version (not a tombstone): namespace, key, version, value, tags, metadata, created_at, updated_at. */
    public static final String INSERT_VERSION = "INSERT INTO versions (project, session, scope, key, version,"
            + " tombstone, value, tags, metadata, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)";

    /** The row id the last insert of this connection took. */
    public static final String LAST_INSERT_ROWID = "SELECT last_insert_rowid()";

    /** Appends a tombstone version: namespace, key, version, updated_at. */
    public static final String INSERT_TOMBSTONE = "INSERT INTO versions (project, session, scope, key,"
            + " version, tombstone, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?)";

    /** Deletes a live row (its tags and relations go with it): its id. */
    public static final String DELETE_ENTRY = "DELETE FROM entries WHERE id = ?";

    /** Appends a tombstone after every live entry of a namespace: updated_at, then {@link Namespace#CONDITION}. */
    public static final String INSERT_TOMBSTONES = "INSERT INTO versions (project, session, scope, key,"
            + " version, tombstone, updated_at) SELECT e.project, e.session, e.scope, e.key, max(e.version, coalesce("
            + "(SELECT max(v.version) FROM versions v WHERE v.project = e.project AND v.session = e.session"
            + " AND v.scope = e.scope AND v.key = e.key), 0)) + 1, 1, ? FROM entries e WHERE " + Namespace.CONDITION;

    /** Deletes every live row of a namespace: project, session, scope. */
    public static final String DELETE_LIVE_ENTRIES = "DELETE FROM entries WHERE project = ? AND session = ? AND scope = ?";

    /** The number of live entries of a namespace: {@link Namespace#CONDITION}. */
    public static final String COUNT_LIVE = "SELECT count(*) FROM entries e WHERE " + Namespace.CONDITION;

    /** Merges the segments of the keyword index, so that deleted words leave the file. */
    public static final String OPTIMIZE_SEARCH_INDEX = "INSERT INTO entries_fts(entries_fts) VALUES('optimize')";

    /** Copies the write-ahead log into the database and empties it. */
    public static final String CHECKPOINT = "PRAGMA wal_checkpoint(TRUNCATE)";

    /** The keys with versions but no live row (deleted, history kept), in key order: {@link Namespace#CONDITION}. */
    public static final String DELETED_KEYS = "SELECT DISTINCT e.key FROM versions e WHERE " + Namespace.CONDITION
            + " AND e.tombstone = 0 AND NOT EXISTS (SELECT 1 FROM entries l WHERE l.project = e.project"
            + " AND l.session = e.session AND l.scope = e.scope AND l.key = e.key) ORDER BY e.key";

    /**
     * A page of live keys in key order after a key, each with its earlier versions (not tombstones), oldest first, in
     * one statement: {@link Namespace#CONDITION}, the key to read after, the page size. An entry's
     * {@link Rows#ENTRY_COLUMNS} come first, then those of one earlier version (NULL where it has none).
     */
    public static final String LIVE_PAGE = "SELECT " + Rows.ENTRY_COLUMNS + ", " + Rows.ENTRY_COLUMNS.replace("e.", "h.")
            + " FROM (SELECT * FROM entries e WHERE " + Namespace.CONDITION + " AND e.key > ? ORDER BY e.key LIMIT ?) e"
            + " LEFT JOIN versions h ON h.project = e.project AND h.session = e.session AND h.scope = e.scope"
            + " AND h.key = e.key AND h.version < e.version AND h.tombstone = 0 ORDER BY e.key, h.version";

    /**
     * A page of deleted keys in key order after a key, every version (not tombstones) of each, oldest first:
     * {@link Namespace#CONDITION} twice, with the key to read after and the page size after the second.
     */
    public static final String DELETED_PAGE = "SELECT " + Rows.ENTRY_COLUMNS + " FROM versions e WHERE "
            + Namespace.CONDITION + " AND e.tombstone = 0 AND e.key IN (SELECT DISTINCT d.key FROM versions d"
            + " WHERE d.project = ? AND d.session = ? AND d.scope = ? AND d.key > ? AND d.tombstone = 0"
            + " AND NOT EXISTS (SELECT 1 FROM entries l WHERE l.project = d.project AND l.session = d.session"
            + " AND l.scope = d.scope AND l.key = d.key) ORDER BY d.key LIMIT ?) ORDER BY e.key, e.version";

    /**
     * A page of live keys in key order after a key that have an outgoing edge or an outgoing half of a relation with
     * the other file: {@link Namespace#CONDITION}, the key to read after, the page size.
     */
    public static final String RELATING_PAGE = "SELECT e.key FROM entries e WHERE " + Namespace.CONDITION
            + " AND e.key > ? AND (EXISTS (SELECT 1 FROM edges d WHERE d.from_entry = e.id)"
            + " OR EXISTS (SELECT 1 FROM links l WHERE l.entry_id = e.id AND l.outgoing = 1)) ORDER BY e.key LIMIT ?";

    /** The number of keys of a namespace, deleted ones included: the namespace twice. */
    public static final String COUNT_KEYS = "SELECT count(*) FROM (SELECT key FROM versions"
            + " WHERE project = ? AND session = ? AND scope = ? UNION SELECT key FROM entries"
            + " WHERE project = ? AND session = ? AND scope = ?)";

    /** Inserts a relation unless it exists: from, type, to, created_at. */
    public static final String INSERT_EDGE = "INSERT INTO edges (from_entry, type, to_entry, created_at)"
            + " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING";

    private static final String LINK_HALF = "entry_id = ? AND outgoing = ? AND type = ? AND other_project = ?"
            + " AND other_session = ? AND other_scope = ? AND other_key = ?";

    /** Writes one half of a relation across files, or its new time: entry id, outgoing, type, other end, created_at. */
    public static final String UPSERT_LINK = "INSERT INTO links (entry_id, outgoing, type, other_project, other_session,"
            + " other_scope, other_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT DO UPDATE SET created_at = excluded.created_at";

    /** When one half of a relation across files was made: entry id, outgoing, type, other end. */
    public static final String LINK_CREATED_AT = "SELECT created_at FROM links WHERE " + LINK_HALF;

    /** Deletes one half of a relation across files: entry id, outgoing, type, other end. */
    public static final String DELETE_LINK = "DELETE FROM links WHERE " + LINK_HALF;

    /** The halves of relations across files held by an entry id whose other end is visible: id, project, session. */
    public static final String LINKS_OF = "SELECT outgoing, type, other_project, other_session, other_scope, other_key,"
            + " created_at FROM links WHERE entry_id = ? AND other_project IN ('', ?) AND other_session IN ('', ?)";

    /** Deletes the halves naming a namespace's entries as their other end: namespace. */
    public static final String DELETE_LINKS_TO_NAMESPACE =
            "DELETE FROM links WHERE other_project = ? AND other_session = ? AND other_scope = ?";

    /** Deletes the halves naming one key as their other end: namespace, key. */
    public static final String DELETE_LINKS_TO_KEY = DELETE_LINKS_TO_NAMESPACE + " AND other_key = ?";

    /** A search that makes a read connection reload the keyword index's segment list. */
    public static final String SEARCH_INDEX_PROBE = "SELECT rowid FROM entries_fts WHERE entries_fts MATCH '\"doctor\"' LIMIT 1";

    /** SQLite's check of the whole file. */
    public static final String INTEGRITY_CHECK = "PRAGMA integrity_check";

    /** Rows that point at missing rows. */
    public static final String FOREIGN_KEY_CHECK = "PRAGMA foreign_key_check";

    /** FTS5's check of the keyword index against the entries (runs as a write). */
    public static final String SEARCH_INDEX_CHECK = "INSERT INTO entries_fts (entries_fts, rank) VALUES ('integrity-check', 1)";

    /** Deletes every row of {@code table} ({@code entries} or {@code versions}) of a namespace: project, session, scope. */
    static String deleteNamespace(String table) {
        return "DELETE FROM " + table + " WHERE project = ? AND session = ? AND scope = ?";
    }

    /** Every stored row of {@code table} ({@code entries}, or the versions but tombstones) with its id, by id. */
    static String storedRows(String table) {
        return "SELECT id, " + Rows.ENTRY_COLUMNS + " FROM " + table + " e"
                + (table.equals("versions") ? " WHERE e.tombstone = 0" : "") + " ORDER BY e.id";
    }
}
