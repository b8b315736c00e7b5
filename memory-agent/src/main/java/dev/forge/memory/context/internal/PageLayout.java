package dev.forge.memory.context.internal;

import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.context.ContextEntry;
import dev.forge.memory.context.ContextLoader;
import dev.forge.memory.context.ContextPage;
import dev.forge.memory.context.ContextPages;
import dev.forge.memory.context.TokenEstimator;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lays ranked memories out as markdown pages under a token budget. Greedy: each page takes the next memories while
 * the whole page text still fits; a memory that does not fit an empty page is cut (with a visible marker) so that
 * every page shows at least one memory. Not API.
 */
public final class PageLayout {

    /** The first line of every non-empty page. */
    public static final String TITLE = "# Memory context";

    private static final DateTimeFormatter DAY = DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC);

    private final int budget;
    private final TokenEstimator estimator;

    private PageLayout(int budget, TokenEstimator estimator) {
        this.budget = budget;
        this.estimator = estimator;
    }

    /**
     * The pages of {@code ranked}, best first.
     *
     * @throws InvalidRequestException if the budget is under {@link ContextLoader#MIN_BUDGET} or cannot hold even one
     *                                 memory's heading line
     */
    public static ContextPages layout(List<MemoryEntry> ranked, int budget, TokenEstimator estimator) {
        if (budget < ContextLoader.MIN_BUDGET) {
            throw new InvalidRequestException("A context budget must be at least " + ContextLoader.MIN_BUDGET
                    + " tokens, was " + budget + ".");
        }
        return new PageLayout(budget, estimator).pages(ranked);
    }

    private ContextPages pages(List<MemoryEntry> ranked) {
        List<List<Item>> pages = new ArrayList<>();
        int next = 0;
        while (next < ranked.size()) {
            List<Item> page = new ArrayList<>();
            while (next < ranked.size()) {
                Item whole = new Item(ranked.get(next), -1);
                page.add(whole);
                if (fits(page)) {
                    next++;
                    continue;
                }
                page.remove(page.size() - 1);
                if (page.isEmpty()) {
                    page.add(cut(whole.entry));
                    next++;
                }
                break;
            }
            pages.add(page);
        }
        List<ContextPage> result = new ArrayList<>();
        int count = Math.max(1, pages.size());
        if (pages.isEmpty()) {
            result.add(new ContextPage("", List.of(), 1, 1, 0));
        }
        for (int i = 0; i < pages.size(); i++) {
            String text = render(pages.get(i));
            List<ContextEntry> entries = new ArrayList<>();
            for (Item item : ordered(pages.get(i))) {
                entries.add(new ContextEntry(item.entry, ContextLoader.categoryOf(item.entry), item.shown >= 0));
            }
            result.add(new ContextPage(text, entries, i + 1, count, estimator.estimate(text)));
        }
        return new ContextPages(result, budget, ranked.size());
    }

    private boolean fits(List<Item> page) {
        return estimator.estimate(render(page)) <= budget;
    }

    /** The entry with as much of its value as fits an otherwise empty page, found by bisection. */
    private Item cut(MemoryEntry entry) {
        int length = entry.value().codePointCount(0, entry.value().length());
        if (!fits(List.of(new Item(entry, 0)))) {
            throw new InvalidRequestException("A context budget of " + budget + " tokens cannot hold even the heading "
                    + "line of memory '" + entry.key() + "' (" + entry.scope().id() + "); raise the budget.");
        }
        int low = 0;
        int high = length - 1;
        while (low < high) {
            int middle = (low + high + 1) >>> 1;
            if (fits(List.of(new Item(entry, middle)))) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        return new Item(entry, low);
    }

    /** The items grouped by category, categories in the order of their best item. */
    private static List<Item> ordered(List<Item> page) {
        Map<String, List<Item>> groups = new LinkedHashMap<>();
        for (Item item : page) {
            groups.computeIfAbsent(ContextLoader.categoryOf(item.entry), c -> new ArrayList<>()).add(item);
        }
        List<Item> ordered = new ArrayList<>();
        groups.values().forEach(ordered::addAll);
        return ordered;
    }

    private static String render(List<Item> page) {
        if (page.isEmpty()) {
            return "";
        }
        StringBuilder text = new StringBuilder(TITLE).append('\n');
        String category = null;
        for (Item item : ordered(page)) {
            String itemCategory = ContextLoader.categoryOf(item.entry);
            if (!itemCategory.equals(category)) {
                category = itemCategory;
                text.append("\n## ").append(category).append("\n\n");
            }
            item.render(text);
        }
        return text.toString();
    }

    /** A memory on a page: whole ({@code shown == -1}) or cut to its first {@code shown} code points. */
    private record Item(MemoryEntry entry, int shown) {

        void render(StringBuilder text) {
            text.append("- ").append(codeSpan(entry.key())).append(" (").append(entry.scope().id()).append(", ")
                    .append(DAY.format(entry.updatedAt())).append(")\n");
            String value = entry.value();
            if (shown >= 0) {
                int total = value.codePointCount(0, value.length());
                value = value.substring(0, value.offsetByCodePoints(0, shown)) + (shown > 0 ? "\n" : "")
                        + "[truncated: " + shown + " of " + total + " characters shown]";
            }
            if (!value.isEmpty()) {
                for (String line : value.split("\n", -1)) {
                    text.append(line.isBlank() ? "" : "  " + line.stripTrailing()).append('\n');
                }
            }
        }

        /** {@code `key`}, with a longer fence when the key holds backticks. */
        private static String codeSpan(String key) {
            int longest = 0;
            int run = 0;
            for (int i = 0; i < key.length(); i++) {
                run = key.charAt(i) == '`' ? run + 1 : 0;
                longest = Math.max(longest, run);
            }
            String fence = "`".repeat(longest + 1);
            String pad = longest > 0 ? " " : "";
            return fence + pad + key + pad + fence;
        }
    }
}
