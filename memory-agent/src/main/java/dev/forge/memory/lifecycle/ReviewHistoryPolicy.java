package dev.forge.memory.lifecycle;

import dev.forge.memory.support.LayeredKey;
import dev.forge.memory.lifecycle.internal.Sections;
import dev.forge.memory.lifecycle.internal.Sections.Section;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code review_history}: each review is a section starting at a {@code ## Review} heading. Reviews are appended,
 * so the last sections are the newest; the newest {@link #keep()} stay, the older ones move verbatim, in order, to
 * the end of {@code review_history_archive} in the same directory. Nothing is lost: every section ends up in
 * exactly one of the two documents.
 */
public final class ReviewHistoryPolicy extends KeepNewestPolicy {

    /** The file type this policy prunes. */
    public static final String FILE_TYPE = "review_history";
    /** The file type the old reviews move to. */
    public static final String ARCHIVE_FILE_TYPE = "review_history_archive";
    /** How many reviews stay by default. */
    public static final int DEFAULT_KEEP = 10;

    private static final Pattern HEADING = Pattern.compile("## Review(?![A-Za-z0-9_]).*");

    /** Keeps the {@value #DEFAULT_KEEP} newest reviews. */
    public ReviewHistoryPolicy() {
        this(DEFAULT_KEEP);
    }

    /** Keeps the {@code keep} newest reviews (at least 1). */
    public ReviewHistoryPolicy(int keep) {
        super(FILE_TYPE, "review", keep);
    }

    @Override
    public PruneOutcome prune(LayeredKey key, String body, LocalDate today) {
        Sections parts = Sections.split(body, line -> HEADING.matcher(line).matches());
        List<Section> reviews = parts.sections();
        if (reviews.size() <= keep()) {
            return PruneOutcome.unchanged(body);
        }
        int moved = reviews.size() - keep();
        StringBuilder main = new StringBuilder(parts.preamble());
        StringBuilder archived = new StringBuilder();
        List<PruneAction> actions = new ArrayList<>();
        String archiveKey = key.sibling(ARCHIVE_FILE_TYPE).key();
        for (int i = 0; i < reviews.size(); i++) {
            Section review = reviews.get(i);
            if (i < moved) {
                archived.append(review.text());
                actions.add(new PruneAction(key, PruneAction.Kind.ARCHIVED, "\"" + review.heading() + "\" moved to "
                        + archiveKey + " (keeping the " + keep() + " newest reviews)"));
            } else {
                main.append(review.text());
            }
        }
        return new PruneOutcome(main.toString(), actions,
                Optional.of(new PruneOutcome.Archive(ARCHIVE_FILE_TYPE, archived.toString())));
    }
}
