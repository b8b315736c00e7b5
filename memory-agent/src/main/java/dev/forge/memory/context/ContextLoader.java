package dev.forge.memory.context;

import dev.forge.memory.Capability;
import dev.forge.memory.Hit;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.forge.memory.consolidation.Consolidation;
import dev.forge.memory.consolidation.ConsolidationReport;
import dev.forge.memory.consolidation.Consolidator;
import dev.forge.memory.consolidation.DeterministicConsolidator;
import dev.forge.memory.context.internal.PageLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Formats the memories relevant to a session as markdown prompt context, in pages that each fit a token budget.
 *
 * <pre>{@code
 * ContextPages pages = ContextLoader.builder().provider(memories).budget(1500).query("database migrations").build().load();
 * String prompt = pages.first().text();
 * }</pre>
 *
 * <p><b>Selection.</b> Without query text: the memories of the scopes, most recently updated first. With query text:
 * the provider's keyword {@link MemoryProvider#search search}, most relevant first; a provider without
 * {@link Capability#KEYWORD_SEARCH} gets a plain filter instead: memories whose key, value or tags contain a word of the
 * query, the ones containing more of its words first, then the newest.
 *
 * <p><b>Layout.</b> A page starts with {@code # Memory context}, then one {@code ## category} heading per category
 * present on the page (in the order of its best memory), then one item per memory: its key, scope and date of last
 * update, and its value indented below. The category of a memory is its metadata {@code category} if that is a
 * non-blank string, else the part of its key before the first {@code :} ({@code decision}, {@code learning}), else its
 * scope's name. Memories fill pages in order; the text of each page, as estimated, fits the budget; a memory too big
 * for a page of its own is cut to fit, ending in {@code [truncated: N of M characters shown]}, so paging always moves
 * on. Every selected memory is on exactly one page. A memory whose value is blank holds nothing for a prompt and is
 * never selected, so a category whose memories are all blank gets no heading.
 *
 * <p><b>Consolidation at load time</b> (off by default; {@link Builder#consolidateOver}): before selecting, a
 * {@link Consolidation} of the loader's scopes runs with that threshold and the builder's consolidator (default
 * {@link DeterministicConsolidator}), so over the threshold duplicates are merged in the store, each kept memory
 * recording the others in its {@code supersedes} metadata, and the pages show the result. A failed run changes
 * nothing and the load goes on with the memories as they are; {@link ContextPages#consolidation()} says what happened.
 */
public final class ContextLoader {

    private static final Logger LOG = LoggerFactory.getLogger(ContextLoader.class);

    /** The default budget, in estimated tokens. */
    public static final int DEFAULT_BUDGET = 2000;
    /** The smallest budget accepted: room for the page title and one memory's heading line. */
    public static final int MIN_BUDGET = 20;

    private final MemoryProvider provider;
    private final Set<Scope> scopes;
    private final int budget;
    private final TokenEstimator estimator;
    private final Optional<String> query;
    private final int limit;
    private final Optional<Consolidation> consolidation;

    private ContextLoader(Builder builder) {
        this.provider = Objects.requireNonNull(builder.provider, "provider: say which provider to read with provider(...)");
        this.scopes = Set.copyOf(builder.scopes);
        this.budget = builder.budget;
        this.estimator = builder.estimator;
        this.query = builder.query;
        this.limit = builder.limit;
        this.consolidation = builder.consolidation.map(c -> c.provider(provider).scopes(scopes.toArray(Scope[]::new))
                .consolidator(builder.consolidator).estimator(estimator).build());
    }

    /** A builder: scopes SESSION, PROJECT and GLOBAL, budget {@value #DEFAULT_BUDGET}, the default estimator, no query. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Selects the memories and lays out every page.
     *
     * @throws InvalidRequestException if the budget cannot hold a single memory's heading line (raise it)
     */
    public ContextPages load() {
        Optional<ConsolidationReport> report = consolidation.map(Consolidation::run);
        report.filter(r -> !r.failures().isEmpty())
                .ifPresent(r -> LOG.warn("Load-time consolidation changed nothing: {}", r.reason()));
        ContextPages pages = PageLayout.layout(select(), budget, estimator);
        return report.map(pages::withConsolidation).orElse(pages);
    }

    /**
     * Page {@code number} (from 1) of a fresh {@link #load()}. For stateless callers such as a command line; a program
     * that pages through one selection uses {@link ContextPages#next(ContextPage)}, which never shows a memory twice
     * even when the store changes in between.
     *
     * @throws InvalidRequestException if there is no such page
     */
    public ContextPage page(int number) {
        return load().page(number);
    }

    /** The selected memories in ranked order, before layout; blank ones are left out. */
    public List<MemoryEntry> select() {
        return ranked().stream().filter(entry -> !entry.value().isBlank()).toList();
    }

    private List<MemoryEntry> ranked() {
        if (query.isEmpty()) {
            return provider.query(Query.builder().scopes(scopes).order(Query.Order.UPDATED_DESC).limit(limit).build());
        }
        if (provider.capabilities().contains(Capability.KEYWORD_SEARCH)) {
            try {
                List<Hit> hits = provider.search(SearchRequest.builder(query.get()).scopes(scopes)
                        .limit(Math.min(limit, SearchRequest.MAX_LIMIT)).build());
                return hits.stream().map(Hit::entry).toList();
            } catch (UnsupportedCapabilityException e) {
                LOG.debug("Provider '{}' lists keyword search but refused it ({}); filtering instead", provider.name(),
                        e.getMessage());
            }
        }
        return filtered(query.get());
    }

    /** The fallback for providers without keyword search: entries holding more of the query's words first. */
    private List<MemoryEntry> filtered(String text) {
        Set<String> words = new LinkedHashSet<>(words(text));
        record Scored(MemoryEntry entry, int matched) {
        }
        List<Scored> scored = new ArrayList<>();
        for (MemoryEntry entry : provider.query(Query.builder().scopes(scopes).order(Query.Order.UPDATED_DESC).build())) {
            // Whole words, as the documentation says: "go" does not match "good".
            Set<String> held = new java.util.HashSet<>(words(entry.key() + " " + entry.value() + " " + String.join(" ", entry.tags())));
            int matched = (int) words.stream().filter(held::contains).count();
            if (matched > 0) {
                scored.add(new Scored(entry, matched));
            }
        }
        // Stable sort: among equal matches the query's order (newest first) stays.
        scored.sort(Comparator.comparingInt(Scored::matched).reversed());
        return scored.stream().limit(limit).map(Scored::entry).toList();
    }

    private static List<String> words(String text) {
        return Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")).filter(w -> !w.isEmpty()).toList();
    }

    /**
     * The category a memory is shown under: its metadata {@code category} if that is a non-blank string, else its key's
     * part before the first {@code :} if not empty, else its scope's name; white space runs become one space.
     */
    public static String categoryOf(MemoryEntry entry) {
        Object category = entry.metadata().get("category");
        if (category instanceof String text && !text.isBlank()) {
            return text.strip().replaceAll("[\\s\\p{Cntrl}]+", " ");
        }
        int colon = entry.key().indexOf(':');
        if (colon > 0) {
            String prefix = entry.key().substring(0, colon).strip().replaceAll("\\s+", " ");
            if (!prefix.isEmpty()) {
                return prefix;
            }
        }
        return entry.scope().id();
    }

    /** Builds a {@link ContextLoader}. */
    public static final class Builder {
        private MemoryProvider provider;
        private Set<Scope> scopes = EnumSet.allOf(Scope.class);
        private int budget = DEFAULT_BUDGET;
        private TokenEstimator estimator = TokenEstimator.DEFAULT;
        private Optional<String> query = Optional.empty();
        private int limit = SearchRequest.MAX_LIMIT;
        private Optional<Consolidation.Builder> consolidation = Optional.empty();
        private Consolidator consolidator = DeterministicConsolidator.create();

        private Builder() {
        }

        /**
         * Consolidates the scopes before each load when their memories hold more than {@code tokens} estimated tokens
         * (seed 002's default is {@value Consolidation#DEFAULT_THRESHOLD}); see the class comment. Off by default.
         *
         * @throws InvalidRequestException if negative
         */
        public Builder consolidateOver(int tokens) {
            this.consolidation = Optional.of(Consolidation.builder().threshold(tokens));
            return this;
        }

        /** The consolidator of load-time consolidation; default {@link DeterministicConsolidator#create()} (no network). */
        public Builder consolidator(Consolidator consolidator) {
            this.consolidator = Objects.requireNonNull(consolidator, "consolidator");
            return this;
        }

        /** The provider to read (required). */
        public Builder provider(MemoryProvider provider) {
            this.provider = Objects.requireNonNull(provider, "provider");
            return this;
        }

        /** The scopes to read; none means all three. */
        public Builder scopes(Scope... scopes) {
            this.scopes = scopes.length == 0 ? EnumSet.allOf(Scope.class) : EnumSet.copyOf(Arrays.asList(scopes));
            return this;
        }

        /**
         * The budget of every page, in estimated tokens.
         *
         * @throws InvalidRequestException if under {@value #MIN_BUDGET}
         */
        public Builder budget(int tokens) {
            if (tokens < MIN_BUDGET) {
                throw new InvalidRequestException("A context budget must be at least " + MIN_BUDGET + " tokens, was "
                        + tokens + ".");
            }
            this.budget = tokens;
            return this;
        }

        /** How text is measured; default {@link TokenEstimator#DEFAULT}. */
        public Builder estimator(TokenEstimator estimator) {
            this.estimator = Objects.requireNonNull(estimator, "estimator");
            return this;
        }

        /**
         * What the session is about: memories are then ranked by relevance to it.
         *
         * @throws InvalidRequestException if blank
         */
        public Builder query(String text) {
            if (Objects.requireNonNull(text, "text").isBlank()) {
                throw new InvalidRequestException("Context query text must not be blank; leave it out to get the newest memories.");
            }
            this.query = Optional.of(text);
            return this;
        }

        /**
         * The most memories selected, 1 to {@value SearchRequest#MAX_LIMIT}; default the maximum.
         *
         * @throws InvalidRequestException if out of range
         */
        public Builder limit(int limit) {
            if (limit < 1 || limit > SearchRequest.MAX_LIMIT) {
                throw new InvalidRequestException("A context limit must be 1 to " + SearchRequest.MAX_LIMIT + ", was " + limit + ".");
            }
            this.limit = limit;
            return this;
        }

        /** Builds the loader; it reads nothing until {@link ContextLoader#load()}. */
        public ContextLoader build() {
            return new ContextLoader(this);
        }
    }
}
