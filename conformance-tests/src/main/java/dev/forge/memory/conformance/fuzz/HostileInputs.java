package dev.forge.memory.conformance.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Hand-picked hostile inputs for any provider, without randomness: path escapes, control characters, unpaired surrogates,
 * oversized keys, values and metadata, deep nesting, front-matter and JSON look-alikes, SQL, FTS5 and Cypher syntax.
 * Each list is a fresh copy; the large ones are built on each call, so hold them only as long as needed.
 */
public final class HostileInputs {

    private HostileInputs() {
    }

    /** Keys that try to leave a directory, pose as special files or break a parser; some valid, some not. */
    public static List<String> keys() {
        List<String> keys = new ArrayList<>(List.of("../escape", "../../escape", "/etc/passwd", "/tmp/escape",
                "..\\escape", "..\\..\\escape", "C:\\Windows\\escape", "C:escape", "\\\\server\\share\\escape",
                "sub/../../escape", "./././../escape", "..", ".", "...", "/", "//", "\\", "~", "~/escape", "%2e%2e%2fescape",
                "%2e%2e/escape", "..%2fescape", "..%5cescape", "....//escape", "..;/escape", "con", "NUL", "aux.json",
                "COM1.md", "LPT1", "trailing.", "trailing ", " leading", ".hidden", ".git", ".git/config", ".forge",
                ".forge/memory.db", "memory.db", "-journal", "key.md", "key.json", "key.json.gz", "a:b", "a::b", ":",
                "x'); DROP TABLE entries; --", "\" OR 1=1 --", "' OR '1'='1", "NEAR(a b)", "\"", "*", "^", "a OR b",
                "}) DETACH DELETE n //", "`", "${HOME}", "$(rm -rf /)", "---", "---\nkey: x\n---", "{\"key\":1}", "[",
                "e\u0301", "\u200b", "\ufeffbom", "\u202eevil", "😀", "😀".repeat(512), "k".repeat(512),
                "p/".repeat(256), "日本語/../../escape", "bad\u0000nul", "bad\nnewline", "bad\rreturn", "bad\ttab",
                "\u001b[31mred", "\u007f", "\u0085", "\u2028", "\u2029", "half\ud83d", "\ude00half", "",
                "k".repeat(513), "😀".repeat(513)));
        keys.add("k".repeat(1024 * 1024));
        return keys;
    }

    /** Values: empty, front-matter fences inside bodies, JSON and YAML syntax, control characters, surrogates, big. */
    public static List<String> values() {
        List<String> values = new ArrayList<>(List.of("", " ", "\n", "---", "---\n---", "---\nkey: injected\n---\nbody",
                "body\n---\nmore: yaml\n---\n", "\u0000", "nul\u0000inside", "\r\n\r\n", "\u001b[2J", "half\ud83d",
                "\ude00", "😀", "{\"key\":\"x\"}", "[".repeat(10_000), "{".repeat(10_000), "&a [*a, *a]",
                "x'); DROP TABLE entries; --", "NEAR(a b, 2)", "\"unterminated", "MATCH (n) DETACH DELETE n",
                "<!-- comment -->", "```\ncode\n```", "\ufeffbom", "\u2028\u2029"));
        values.add("v".repeat(1024 * 1024 + 1));
        values.add("é".repeat(512 * 1024 + 1));
        return values;
    }

    /** Tag lists: empty tags, control characters, duplicates, too long, too many. */
    public static List<List<String>> tags() {
        List<List<String>> tags = new ArrayList<>(List.of(List.of(""), List.of(" "), List.of("a", "a"), List.of("A", "a"),
                List.of("t\u0000"), List.of("t\n"), List.of("half\ud83d"), List.of("x'); DROP TABLE tags; --"),
                List.of("NEAR("), List.of("*"), List.of("../tag"), List.of("t".repeat(128)), List.of("t".repeat(129))));
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 257; i++) {
            many.add("tag" + i);
        }
        tags.add(many);
        tags.add(many.subList(0, 256));
        return tags;
    }

    /** Metadata: deep nesting, NaN, huge, hostile field names, odd value types. */
    public static List<Map<String, ?>> metadata() {
        List<Map<String, ?>> metadata = new ArrayList<>();
        metadata.add(Map.of("x'); DROP TABLE entries; --", "v", "$.a", 1L, "a.b", true));
        metadata.add(Map.of("nul\u0000name", "v"));
        metadata.add(Map.of("half\ud83d", "v"));
        metadata.add(Map.of("k", "half\ud83d"));
        metadata.add(Map.of("nan", Double.NaN));
        metadata.add(Map.of("inf", Double.POSITIVE_INFINITY));
        metadata.add(Map.of("big", new java.math.BigInteger("1".repeat(40))));
        metadata.add(Map.of("dec", new java.math.BigDecimal("0.1000000000000000000000001")));
        metadata.add(Map.of("object", new Object()));
        metadata.add(Map.of("huge", "m".repeat(64 * 1024)));
        metadata.add(Map.of("---", "---\nkey: x\n---"));
        metadata.add(Map.of("deep", nestedLists(100_000)));
        metadata.add(Map.of("deepMaps", nestedMaps(100_000)));
        metadata.add(Map.of("sixteen", nestedLists(15)));
        Map<String, Object> wide = new java.util.HashMap<>();
        for (int i = 0; i < 10_000; i++) {
            wide.put("field" + i, i);
        }
        metadata.add(wide);
        return metadata;
    }

    /** Key patterns for queries: globs, regex-like text, SQL LIKE and GLOB syntax, broken escapes. */
    public static List<String> patterns() {
        return List.of("*", "**", "?", "[", "]", "[a-", "\\", "a\\", "%", "_", "%'; DROP TABLE entries; --", "' OR 1=1",
                "tag:", "tag:*", "tag:%", "tag:x'); --", "a*b*c*d*e*f*g*h*i*j*k", "*".repeat(1000), "(a|b)", ".*",
                "^$", "{a,b}", "\u0000", "half\ud83d", "../*", "/*", "", " ", "k".repeat(513), "a/**/b", "NEAR(");
    }

    /** Search texts: FTS5 operators and syntax errors, Lucene query syntax, SQL, empty and huge text. */
    public static List<String> searchTexts() {
        return List.of("\"", "\"\"", "*", "^", "^a", "a*", "NEAR(", "NEAR(a b", "NEAR(a b, 99999999999)", "a OR", "AND",
                "NOT", "a AND NOT", "(", ")", "{", "col:a", "entries:a", "key:a", "-a", "+a", "a~", "a~2", "a^2", "[a TO b]",
                "/regex/", "\\", "x'); DROP TABLE entries; --", "MATCH (n) DETACH DELETE n", "\u0000", "half\ud83d", "😀",
                "", " ", "a".repeat(100_000), "a ".repeat(20_000), "\"a\" \"b\" NEAR/2", "a:b:c", "?", "!");
    }

    /** Nested lists {@code depth} deep: {@code [[[...]]]}, built without recursion. */
    public static List<Object> nestedLists(int depth) {
        List<Object> inner = new ArrayList<>();
        for (int i = 0; i < depth; i++) {
            List<Object> outer = new ArrayList<>(1);
            outer.add(inner);
            inner = outer;
        }
        return inner;
    }

    /** Nested maps {@code depth} deep: {@code {"a":{"a":...}}}, built without recursion. */
    public static Map<String, Object> nestedMaps(int depth) {
        Map<String, Object> inner = new java.util.HashMap<>();
        for (int i = 0; i < depth; i++) {
            Map<String, Object> outer = new java.util.HashMap<>(2);
            outer.put("a", inner);
            inner = outer;
        }
        return inner;
    }
}
