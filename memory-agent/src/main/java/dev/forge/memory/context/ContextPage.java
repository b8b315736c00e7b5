package dev.forge.memory.context;

import java.util.List;
import java.util.Objects;

/**
 * One page of prompt context: markdown text that fits the budget, and the memories on it.
 *
 * @param text      the prompt block (markdown); empty when there is nothing to show
 * @param entries   the memories on this page, in the order shown
 * @param number    this page's number, from 1
 * @param pageCount how many pages the selection took (at least 1)
 * @param tokens    the estimated size of {@code text}, never more than the budget
 */
public record ContextPage(String text, List<ContextEntry> entries, int number, int pageCount, int tokens) {

    /** Copies the entries and checks the numbering. */
    public ContextPage {
        Objects.requireNonNull(text, "text");
        entries = List.copyOf(entries);
        if (number < 1 || pageCount < number) {
            throw new IllegalArgumentException("page " + number + " of " + pageCount);
        }
    }

    /** Whether another page follows this one. */
    public boolean hasNext() {
        return number < pageCount;
    }

    /** Whether this page shows no memory (the selection was empty). */
    public boolean isEmpty() {
        return entries.isEmpty();
    }
}
