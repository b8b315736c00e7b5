package dev.forge.memory.vector.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.forge.memory.Filter;
import dev.forge.memory.KeyPattern;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.support.EnglishTerms;
import dev.forge.memory.support.SearchText;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The layout of one entry's Lucene document, and the queries over it.
 *
 * <p>Fields: {@code id} (namespace and key: the unit of replacement), {@code ns} (scope, project and session),
 * {@code key}, {@code scope}, {@code project}, {@code session}, {@code tags} (one term per tag), {@code meta} (one
 * canonical term per top-level metadata field, for equality filters), {@code created_at} and {@code updated_at}
 * (points), {@code version}, {@code text} (the value and the configured {@link SearchText}, by default key and tags, for BM25), {@code entry} (the whole entry as stored
 * JSON, what reads return) and {@code vector_<dimension>} (the unit vector, dot product similarity).
 */
public final class Documents {

    /** The namespace and key: one document per id. */
    public static final String ID = "id";
    /** The namespace: scope, and project and session where the scope has them. */
    public static final String NS = "ns";
    static final String KEY = "key";
    static final String SCOPE = "scope";
    static final String PROJECT = "project";
    static final String SESSION = "session";
    static final String TAGS = "tags";
    static final String META = "meta";
    static final String CREATED_AT = "created_at";
    static final String UPDATED_AT = "updated_at";
    static final String VERSION = "version";
    /** The analysed text BM25 searches: key, tags and value. */
    public static final String TEXT = "text";
    /** The stored JSON of the entry. */
    public static final String ENTRY = "entry";

    /** Vectors are unit length, so the dot product is the cosine similarity. */
    public static final VectorSimilarityFunction SIMILARITY = VectorSimilarityFunction.DOT_PRODUCT;

    /** The largest dimension Lucene's default vector format indexes. */
    public static final int MAX_DIMENSION = 1024;

    /** Canonical metadata terms longer than this are replaced by a hash, so that no term reaches Lucene's limit. */
    private static final int MAX_META_TERM_BYTES = 512;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final char SEP = '\u0000';

    private Documents() {
    }

    /** The name of the vector field for vectors of {@code dimension} components. */
    public static String vectorField(int dimension) {
        return "vector_" + dimension;
    }

    /**
     * The analyser of the {@code text} field and of keyword queries: {@link EnglishTerms}, the analysis the default
     * providers' BM25 uses too (runs of letters and digits, lower-cased, Snowball English stop words, Porter stems).
     */
    public static Analyzer analyzer() {
        return EnglishTerms.analyzer();
    }

    /** The distinct analysed terms of {@code text}, in order of first appearance. */
    public static List<String> terms(Analyzer analyzer, String text) {
        return List.copyOf(new LinkedHashSet<>(EnglishTerms.tokens(analyzer, text)));
    }

    /** The namespace of {@code scope} for a provider of {@code project} and {@code session}. */
    public static String namespace(Scope scope, String project, String session) {
        return switch (scope) {
            case SESSION -> "session" + SEP + project + SEP + session;
            case PROJECT -> "project" + SEP + project;
            case GLOBAL -> "global";
        };
    }

    /**
     * The namespace, in a project's index, of GLOBAL entries that index held before GLOBAL moved to the shared index
     * and that could not be moved (the shared index holds the key with other content): no scope reads it.
     */
    public static final String UNMOVED_GLOBAL = "unmoved" + SEP + "global";

    /**
     * The entry of the document of {@code id} that {@code searcher} sees, if any.
     *
     * @param where the index and key, for the message of a damaged entry
     */
    public static java.util.Optional<MemoryEntry> find(org.apache.lucene.search.IndexSearcher searcher, String id,
            String where) throws IOException {
        org.apache.lucene.search.TopDocs top = searcher.search(new TermQuery(new Term(ID, id)), 1);
        if (top.scoreDocs.length == 0) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(EntryCodec.decode(searcher.storedFields().document(top.scoreDocs[0].doc).get(ENTRY), where));
    }

    /** The id of {@code key} in namespace {@code ns}. */
    public static String id(String ns, String key) {
        return ns + SEP + key;
    }

    /**
     * The document of {@code entry}.
     *
     * @param text   what of the entry keyword search finds (the text its vector was made from)
     * @param vector its unit vector, or {@code null} when the model found nothing in its text (it then has no vector
     *               and semantic search never finds it)
     */
    public static Document document(MemoryEntry entry, String ns, String project, String session, SearchText text,
            float[] vector) {
        Document doc = new Document();
        doc.add(new StringField(ID, id(ns, entry.key()), Field.Store.NO));
        doc.add(new StringField(NS, ns, Field.Store.YES));
        doc.add(new StringField(KEY, entry.key(), Field.Store.NO));
        doc.add(new StringField(SCOPE, entry.scope().id(), Field.Store.NO));
        doc.add(new StringField(PROJECT, entry.scope() == Scope.GLOBAL ? "" : project, Field.Store.YES));
        doc.add(new StringField(SESSION, entry.scope() == Scope.SESSION ? session : "", Field.Store.YES));
        for (String tag : entry.tags()) {
            doc.add(new StringField(TAGS, tag, Field.Store.NO));
        }
        for (Map.Entry<String, Object> field : entry.metadata().entrySet()) {
            doc.add(new StringField(META, metaTerm(field.getKey(), field.getValue()), Field.Store.NO));
        }
        doc.add(new LongPoint(CREATED_AT, entry.createdAt().toEpochMilli()));
        doc.add(new LongPoint(UPDATED_AT, entry.updatedAt().toEpochMilli()));
        doc.add(new StoredField(VERSION, entry.version()));
        doc.add(new TextField(TEXT, text.text(entry), Field.Store.NO));
        doc.add(new StoredField(ENTRY, EntryCodec.encode(entry)));
        if (vector != null) {
            doc.add(new KnnFloatVectorField(vectorField(vector.length), vector, SIMILARITY));
        }
        return doc;
    }

    /**
     * {@code vector} as stored: {@code null} for a zero vector (no words), otherwise scaled to unit length (models
     * promise unit vectors; rounding is corrected so that the dot product stays a cosine).
     */
    public static float[] unitOrNull(float[] vector) {
        double norm = 0;
        for (float component : vector) {
            norm += (double) component * component;
        }
        if (norm == 0 || !Double.isFinite(norm)) {
            return null;
        }
        float[] unit = new float[vector.length];
        float scale = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < vector.length; i++) {
            unit[i] = vector[i] * scale;
        }
        return unit;
    }

    // ------------------------------------------------------------------ metadata terms

    /**
     * The term of one metadata field: the field name as a JSON string, then its value in a canonical form in which
     * numbers equal by value are equal ({@code 2} and {@code 2.0}) and nothing else is, so that a term query is
     * exactly {@link Filter}'s equality. Long forms are hashed.
     */
    public static String metaTerm(String name, Object value) {
        String canonical = canonical(value);
        String field = quote(name);
        if (canonical.getBytes(StandardCharsets.UTF_8).length + field.length() > MAX_META_TERM_BYTES) {
            return field + "#" + sha256(canonical);
        }
        return field + "=" + canonical;
    }

    private static String canonical(Object value) {
        if (value instanceof String s) {
            return quote(s);
        }
        if (value instanceof Boolean b) {
            return b.toString();
        }
        if (value instanceof Long || value instanceof Integer) {
            return BigDecimal.valueOf(((Number) value).longValue()).stripTrailingZeros().toString();
        }
        if (value instanceof Number n) {
            return BigDecimal.valueOf(n.doubleValue()).stripTrailingZeros().toString();
        }
        if (value instanceof List<?> list) {
            List<String> items = new ArrayList<>();
            list.forEach(item -> items.add(canonical(item)));
            return "[" + String.join(",", items) + "]";
        }
        if (value instanceof Map<?, ?> map) {
            TreeMap<String, Object> sorted = new TreeMap<>();
            map.forEach((k, v) -> sorted.put(String.valueOf(k), v));
            List<String> fields = new ArrayList<>();
            sorted.forEach((k, v) -> fields.add(quote(k) + ":" + canonical(v)));
            return "{" + String.join(",", fields) + "}";
        }
        throw new IllegalArgumentException("not a normalised JSON value: " + value.getClass().getName());
    }

    private static String quote(String text) {
        try {
            return JSON.writeValueAsString(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    // ------------------------------------------------------------------ queries

    /** The documents of the given namespaces that meet {@code filter}: what every read and search is limited to. */
    public static Query filterQuery(Set<String> namespaces, Filter filter) {
        BooleanQuery.Builder query = new BooleanQuery.Builder();
        BooleanQuery.Builder anyNamespace = new BooleanQuery.Builder();
        for (String ns : namespaces) {
            anyNamespace.add(new TermQuery(new Term(NS, ns)), Occur.SHOULD);
        }
        query.add(anyNamespace.build(), Occur.FILTER);
        for (String tag : filter.tags()) {
            query.add(new TermQuery(new Term(TAGS, tag)), Occur.FILTER);
        }
        for (Map.Entry<String, Object> field : filter.metadata().entrySet()) {
            query.add(new TermQuery(new Term(META, metaTerm(field.getKey(), field.getValue()))), Occur.FILTER);
        }
        long after = filter.updatedAfter().map(t -> t.toEpochMilli() == Long.MAX_VALUE ? Long.MAX_VALUE : t.toEpochMilli() + 1)
                .orElse(Long.MIN_VALUE);
        long before = filter.updatedBefore().map(t -> t.toEpochMilli() == Long.MIN_VALUE ? Long.MIN_VALUE : t.toEpochMilli() - 1)
                .orElse(Long.MAX_VALUE);
        if (filter.updatedAfter().isPresent() || filter.updatedBefore().isPresent()) {
            query.add(LongPoint.newRangeQuery(UPDATED_AT, after, before), Occur.FILTER);
        }
        return query.build();
    }

    /**
     * The most UTF-8 bytes of a key prefix a prefix query is built from. Lucene makes it an automaton of a state per
     * byte and refuses one of over 1,000 states with an {@link IllegalArgumentException}, while a key may be 2,048
     * bytes long: a longer prefix narrows by its start alone.
     */
    private static final int MAX_PREFIX_BYTES = 256;

    /**
     * {@link #filterQuery} narrowed by the parts of a key pattern Lucene can match on its own; the caller matches the
     * candidates exactly.
     */
    public static Query patternQuery(Query filter, KeyPattern pattern) {
        Query narrowing = switch (pattern.kind()) {
            case EXACT -> new TermQuery(new Term(KEY, pattern.literals().get(0)));
            case PREFIX -> new PrefixQuery(new Term(KEY, leading(pattern.literalPrefix(), MAX_PREFIX_BYTES)));
            case TAG -> new TermQuery(new Term(TAGS, pattern.tagName()));
            default -> null;
        };
        if (narrowing == null) {
            return filter;
        }
        return new BooleanQuery.Builder().add(filter, Occur.FILTER).add(narrowing, Occur.FILTER).build();
    }

    /** The longest start of {@code text} of at most {@code maxBytes} UTF-8 bytes, whole code points only. */
    private static String leading(String text, int maxBytes) {
        int end = 0;
        int bytes = 0;
        while (end < text.length()) {
            int codePoint = text.codePointAt(end);
            int size = codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
            if (bytes + size > maxBytes) {
                break;
            }
            bytes += size;
            end += Character.charCount(codePoint);
        }
        return text.substring(0, end);
    }
}
