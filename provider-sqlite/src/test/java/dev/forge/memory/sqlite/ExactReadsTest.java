package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.EntryRef;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where the SQL is trusted (an exact query is not checked again by the API's matcher; search ties are ordered by the
 * SQL and tied rows after the cut are not decoded), the results are exactly those of the slow path: the API's matcher
 * over every entry written, and the full ranking cut at the limit. In one database file and in two (GLOBAL apart).
 */
class ExactReadsTest {

    private static final String[] KEYS = {"a:1", "a:2", "a:10", "a:x", "b:1", "b:x", "c:1", "c:2", "c:3", "note/001",
            "note/002", "note/010", "note/100", "notes", "x", "y", "é:1", "é:2", "zz", "zz:1"};
    private static final String[] WORDS = {"alpha", "beta", "gamma", "delta"};
    private static final String[] TAGS = {"red", "green", "blue"};

    @TempDir
    Path directory;

    static Stream<Arguments> layouts() {
        return Stream.of(Arguments.of("two files", Map.of()),
                Arguments.of("one file", Map.of("global_path", ".forge/memory.db")));
    }

    /** Writes entries at random (same keys in several scopes, overwrites), returns the model: the last entry per ref. */
    private static Map<EntryRef, MemoryEntry> fill(SqliteMemoryProvider provider, Random random, int writes) {
        Map<EntryRef, MemoryEntry> model = new HashMap<>();
        for (int i = 0; i < writes; i++) {
            String key = KEYS[random.nextInt(KEYS.length)];
            Scope scope = Scope.values()[random.nextInt(3)];
            StringBuilder value = new StringBuilder();
            int words = 1 + random.nextInt(3); // few words from a small vocabulary: bm25 ties abound
            for (int w = 0; w < words; w++) {
                value.append(w == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
            }
            List<String> tags = new ArrayList<>();
            for (String tag : TAGS) {
                if (random.nextBoolean()) {
                    tags.add(tag);
                }
            }
            Map<String, Object> metadata = random.nextInt(4) == 0 ? Map.of()
                    : Map.of("lang", random.nextBoolean() ? "java" : "go", "n", (long) random.nextInt(4), "flag", random.nextBoolean());
            MemoryEntry written = provider.set(key, value.toString(), scope, tags, metadata);
            model.put(written.ref(), written);
        }
        return model;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void queries_return_what_the_api_matcher_selects_from_every_entry(String layout, Map<String, ?> config) {
        try (SqliteMemoryProvider provider = Stores.open(directory, config)) {
            Random random = new Random(27);
            Map<EntryRef, MemoryEntry> model = fill(provider, random, 150);
            List<Instant> times = model.values().stream().map(MemoryEntry::updatedAt).sorted().toList();
            String[] patterns = {"*", "a:*", "note/*", "note/0*", "*:1", "*o*", "b:x", "missing", "tag:red", "tag:none", "é:*"};
            List<Set<Scope>> scopeSets = List.of(EnumSet.allOf(Scope.class), EnumSet.of(Scope.PROJECT),
                    EnumSet.of(Scope.GLOBAL), EnumSet.of(Scope.SESSION, Scope.GLOBAL));
            int[][] pages = {{Query.UNLIMITED, 0}, {3, 0}, {3, 2}, {1000, 4}, {1, 0}};
            for (int round = 0; round < 400; round++) {
                Query.Builder builder = Query.builder().pattern(patterns[random.nextInt(patterns.length)])
                        .scopes(scopeSets.get(random.nextInt(scopeSets.size())))
                        .order(Query.Order.values()[random.nextInt(Query.Order.values().length)]);
                int[] page = pages[random.nextInt(pages.length)];
                builder.limit(page[0]).offset(page[1]);
                switch (random.nextInt(7)) {
                    case 0 -> builder.tag(TAGS[random.nextInt(TAGS.length)]);
                    case 1 -> builder.metadata("lang", "java");
                    case 2 -> builder.metadata("flag", true);
                    case 3 -> builder.metadata("n", 2L); // not exact in SQL: the matcher decides
                    case 4 -> builder.updatedAfter(times.get(random.nextInt(times.size())));
                    case 5 -> builder.updatedBefore(times.get(random.nextInt(times.size()))).tag("blue");
                    default -> {
                    }
                }
                Query query = builder.build();
                assertThat(provider.query(query)).as("%s: %s", layout, query).containsExactlyElementsOf(query.apply(model.values()));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void a_search_cut_at_any_limit_is_the_head_of_the_full_ranking(String layout, Map<String, ?> config) {
        try (SqliteMemoryProvider provider = Stores.open(directory, config)) {
            fill(provider, new Random(2027), 200);
            Comparator<Hit> ranking = Comparator.comparingDouble(Hit::score).reversed().thenComparing(h -> h.entry().ref());
            for (String text : List.of("alpha", "beta gamma", "delta alpha beta")) {
                for (String tag : new String[] {null, "green", "n=2"}) {
                    SearchRequest.Builder all = SearchRequest.builder(text).limit(1000);
                    filter(all, tag);
                    List<Hit> full = provider.search(all.build());
                    assertThat(full).as("%s: '%s' %s finds ties", layout, text, tag).hasSizeGreaterThan(tag == null ? 10 : 1);
                    assertThat(full).as("%s: '%s' ranked by score, then key, then scope", layout, text).isSortedAccordingTo(ranking);
                    for (int limit = 1; limit <= full.size(); limit++) {
                        SearchRequest.Builder cut = SearchRequest.builder(text).limit(limit);
                        filter(cut, tag);
                        assertThat(provider.search(cut.build())).as("%s: '%s' tag %s limit %d", layout, text, tag, limit)
                                .containsExactlyElementsOf(full.subList(0, limit));
                    }
                }
            }
        }
    }

    /** A tag filter (exact in SQL), {@code n=2} (a number: the matcher decides) or none. */
    private static void filter(SearchRequest.Builder builder, String condition) {
        if ("n=2".equals(condition)) {
            builder.metadata("n", 2L);
        } else if (condition != null) {
            builder.tag(condition);
        }
    }
}
