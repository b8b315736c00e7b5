package dev.forge.memory.context;

import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.consolidation.ConsolidationReport;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Every page of one selection, laid out at once: each selected memory is on exactly one page, pages in order of
 * relevance (or recency), every page within the budget. Later changes to the store do not change these pages.
 *
 * @param pages    the pages, numbered from 1; one empty page when nothing was selected
 * @param budget   the budget every page fits, in estimated tokens
 * @param selected      how many memories were selected (the number of entries over all pages)
 * @param consolidation what the load-time consolidation did before the selection, when the loader was asked for one
 *                      ({@link ContextLoader.Builder#consolidateOver})
 */
public record ContextPages(List<ContextPage> pages, int budget, int selected, Optional<ConsolidationReport> consolidation) {

    /** Copies the pages; there is always at least one. */
    public ContextPages {
        pages = List.copyOf(pages);
        if (pages.isEmpty()) {
            throw new IllegalArgumentException("at least one page");
        }
        Objects.requireNonNull(consolidation, "consolidation");
    }

    /** Pages of a load without consolidation. */
    public ContextPages(List<ContextPage> pages, int budget, int selected) {
        this(pages, budget, selected, Optional.empty());
    }

    /** These pages, laid out after {@code report}'s consolidation. */
    public ContextPages withConsolidation(ConsolidationReport report) {
        return new ContextPages(pages, budget, selected, Optional.of(report));
    }

    /** The first page. */
    public ContextPage first() {
        return pages.get(0);
    }

    /**
     * Page {@code number}, from 1.
     *
     * @throws InvalidRequestException if there is no such page
     */
    public ContextPage page(int number) {
        if (number < 1 || number > pages.size()) {
            throw new InvalidRequestException("There is no context page " + number + ": the memories fill "
                    + pages.size() + (pages.size() == 1 ? " page" : " pages") + " of " + budget + " tokens.");
        }
        return pages.get(number - 1);
    }

    /** The page after {@code page}, if any: the next-page call. */
    public Optional<ContextPage> next(ContextPage page) {
        return page.number() < pages.size() ? Optional.of(pages.get(page.number())) : Optional.empty();
    }

    /** The number of pages. */
    public int size() {
        return pages.size();
    }
}
