package dev.forge.memory.hybrid.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Capability;
import dev.forge.memory.Filter;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.support.FusionMethod;
import dev.forge.memory.support.SemanticScorer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The searches of a hybrid router that has a search child with the mode asked for: KEYWORD and SEMANTIC go to the
 * child, HYBRID fuses the child's semantic ranking with the storage's keyword ranking as configured (the stronger
 * clipped z-score by default). Hits carry the entries as the storage holds them; while the child is down or behind, the
 * storage's keyword search answers.
 */
public final class SearchRouter {

    private static final Logger LOG = LoggerFactory.getLogger(SearchRouter.class);

    /** A search child's {@link BackendUnavailableException}, told apart from the storage's. */
    private static final class SearchChildUnavailable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SearchChildUnavailable(BackendUnavailableException cause) {
            super(cause.getMessage(), cause, false, false);
        }
    }

    private final Router router;
    private final MemoryProvider storage;
    private final Secondary search;
    private final FusionMethod fusion;
    private final int rrfK;
    private final double keywordWeight;

    /**
     * Searches through {@code router}'s search child.
     *
     * @param fusion        how HYBRID search fuses the two rankings
     * @param rrfK          the rank constant of {@link FusionMethod#RRF}
     * @param keywordWeight the keyword ranking's weight in the fusion, the semantic ranking weighing 1
     */
    public SearchRouter(Router router, Secondary search, FusionMethod fusion, int rrfK, double keywordWeight) {
        this.router = router;
        this.storage = router.storage();
        this.search = search;
        this.fusion = fusion;
        this.rrfK = rrfK;
        this.keywordWeight = keywordWeight;
    }

    /** Answers {@code request}, whose mode the search child has. */
    public List<Hit> search(SearchRequest request) {
        if (router.queuedChildren().contains(Outbox.Child.SEARCH)) {
            return fallback(request, "it has updates waiting in the outbox");
        }
        try {
            if (request.mode() == SearchMode.HYBRID) {
                return hybrid(request);
            }
            return fresh(request, depth -> childSearch(childRequest(request, request.mode(), depth, request.threshold())));
        } catch (SearchChildUnavailable e) {
            BackendUnavailableException cause = (BackendUnavailableException) e.getCause();
            router.markDown(search, cause);
            return fallback(request, cause.getMessage());
        }
    }

    /** A search of the search child; its {@link BackendUnavailableException} becomes {@link SearchChildUnavailable}. */
    private List<Hit> childSearch(SearchRequest request) {
        try {
            return search.provider().search(request);
        } catch (BackendUnavailableException e) {
            throw new SearchChildUnavailable(e);
        }
    }

    /**
     * HYBRID: the search child's semantic ranking and the storage's keyword ranking (the search child's where the
     * storage has no keyword search), each {@code max(100, 4 × limit)} deep and computed with the request's scopes and
     * filter, fused as configured (by the stronger clipped z-score by default).
     */
    private List<Hit> hybrid(SearchRequest request) {
        MemoryProvider keywords = storage.capabilities().contains(Capability.KEYWORD_SEARCH) ? storage : null;
        return fresh(request, depth -> {
            int ranked = Math.max(100, depth);
            List<Hit> semantic = childSearch(childRequest(request, SearchMode.SEMANTIC, ranked, 0.0));
            SearchRequest keywordRequest = new SearchRequest(request.text(), request.scopes(), SearchMode.KEYWORD,
                    ranked, 0.0, request.filter());
            List<Hit> keyword = keywords != null ? storage.search(keywordRequest) : childSearch(keywordRequest);
            SearchRequest unlimited = new SearchRequest(request.text(), request.scopes(), SearchMode.HYBRID,
                    SearchRequest.MAX_LIMIT, request.threshold(), request.filter());
            return SemanticScorer.fuse(unlimited, keyword, semantic, fusion, rrfK, keywordWeight);
        });
    }

    /**
     * The search child's request: the request's filter without {@code updatedBefore}, which the child would check on its
     * own copy's time (later than the storage's when the copy came from the outbox); every filter is checked again on
     * the stored entry.
     */
    private static SearchRequest childRequest(SearchRequest request, SearchMode mode, int depth, double threshold) {
        Filter filter = request.filter();
        Filter loose = new Filter(filter.tags(), filter.metadata(), filter.updatedAfter(), Optional.empty());
        return new SearchRequest(request.text(), request.scopes(), mode, depth, threshold, loose);
    }

    /**
     * Hits with the entries as stored: asks {@code ranking} for twice the limit (and more while hits drop out), replaces
     * each hit's entry with the storage's, drops those the storage no longer has or the filter rejects.
     */
    private List<Hit> fresh(SearchRequest request, IntFunction<List<Hit>> ranking) {
        int depth = Math.min(SearchRequest.MAX_LIMIT, Math.max(request.limit() * 2, request.limit() + 10));
        while (true) {
            List<Hit> ranked = ranking.apply(depth);
            List<Hit> hits = new ArrayList<>();
            for (Hit hit : ranked) {
                Optional<MemoryEntry> stored = router.get(hit.entry().key(), hit.entry().scope());
                if (stored.isPresent() && request.filter().matches(stored.get())) {
                    hits.add(new Hit(stored.get(), hit.score()));
                    if (hits.size() == request.limit()) {
                        return hits;
                    }
                } else if (stored.isEmpty()) {
                    LOG.debug("Search hit {} of the search provider is not in the storage; left out", hit.entry().ref());
                }
            }
            if (ranked.size() < depth || depth >= SearchRequest.MAX_LIMIT) {
                return hits;
            }
            depth = (int) Math.min(SearchRequest.MAX_LIMIT, depth * 4L);
        }
    }

    private List<Hit> fallback(SearchRequest request, String reason) {
        if (!storage.capabilities().contains(Capability.KEYWORD_SEARCH)) {
            throw new BackendUnavailableException("The " + search.label + " cannot search (" + reason + ") and the"
                    + " storage provider '" + storage.name() + "' has no keyword search to fall back on. Try again when"
                    + " the search provider is back.");
        }
        LOG.warn("The {} cannot search ({}); answering {} search with the storage provider '{}''s keyword search, whose"
                + " ranking differs", search.label, reason, request.mode(), storage.name());
        return storage.search(new SearchRequest(request.text(), request.scopes(), SearchMode.KEYWORD, request.limit(),
                request.threshold(), request.filter()));
    }
}
