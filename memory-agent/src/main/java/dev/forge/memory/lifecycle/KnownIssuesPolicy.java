package dev.forge.memory.lifecycle;

import dev.forge.memory.support.LayeredKey;
import dev.forge.memory.lifecycle.internal.Sections;
import dev.forge.memory.lifecycle.internal.Sections.Section;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code known_issues}: each issue is a {@code ###} section (up to the next heading of level 1 to 3) with a
 * {@code **Status**:} line. By that line's status and first {@code YYYY-MM-DD} date:
 * <ul>
 *   <li>"Resolved" dated 30 or more days ago: the issue is removed;</li>
 *   <li>"In Progress": kept whatever its age;</li>
 *   <li>any other status dated 90 or more days ago: {@code [VERIFY STATUS]} is added to its heading, once;</li>
 *   <li>no status line, or no date: left alone.</li>
 * </ul>
 * Everything else (titles, severity groups, text between issues) stays as it is.
 */
public final class KnownIssuesPolicy implements PrunePolicy {

    /** The file type this policy prunes. */
    public static final String FILE_TYPE = "known_issues";
    /** The tag added to the heading of an issue whose status is old. */
    public static final String VERIFY_TAG = "[VERIFY STATUS]";
    /** Days after which a resolved issue goes. */
    public static final int RESOLVED_DAYS = 30;
    /** Days after which an issue's status needs checking. */
    public static final int VERIFY_DAYS = 90;

    private static final Pattern HEADING = Pattern.compile("#{1,3} .*");
    private static final Pattern STATUS = Pattern.compile("\\s*(?:[-*]\\s+)?\\*\\*Status(?:\\*\\*:|:\\*\\*)(.*)", Pattern.CASE_INSENSITIVE);
    private static final Pattern DATE = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})");
    // The status must say it is resolved, first thing (after a marker such as an emoji or a check mark): "Not resolved
    // yet" or "Unresolved" are not.
    private static final Pattern RESOLVED = Pattern.compile("^[^\\p{L}\\p{N}]*resolved\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern IN_PROGRESS = Pattern.compile("\\bin[ -]progress\\b", Pattern.CASE_INSENSITIVE);

    /** A policy with the adapter's thresholds. */
    public KnownIssuesPolicy() {
    }

    @Override
    public String fileType() {
        return FILE_TYPE;
    }

    @Override
    public PruneOutcome prune(LayeredKey key, String body, LocalDate today) {
        Sections parts = Sections.split(body, line -> HEADING.matcher(line).matches());
        StringBuilder text = new StringBuilder(parts.preamble());
        List<PruneAction> actions = new ArrayList<>();
        for (Section section : parts.sections()) {
            if (!section.heading().startsWith("### ")) {
                text.append(section.text());
                continue;
            }
            Optional<String> status = status(section);
            Optional<LocalDate> date = status.flatMap(KnownIssuesPolicy::date);
            String title = section.heading().substring(4).trim();
            if (date.isEmpty() || IN_PROGRESS.matcher(status.get()).find()) {
                text.append(section.text());
                continue;
            }
            long days = Staleness.daysBetween(date.get(), today);
            if (RESOLVED.matcher(status.get()).lookingAt()) {
                if (days >= RESOLVED_DAYS) {
                    actions.add(new PruneAction(key, PruneAction.Kind.REMOVED, "\"" + title + "\" resolved " + date.get()
                            + ", " + days + " days ago (resolved issues go after " + RESOLVED_DAYS + " days)"));
                } else {
                    text.append(section.text());
                }
            } else if (days >= VERIFY_DAYS && !section.heading().contains(VERIFY_TAG)) {
                String headingLine = Sections.lines(section.text()).get(0);
                String ending = headingLine.substring(section.heading().length());
                text.append(section.heading().stripTrailing()).append(' ').append(VERIFY_TAG).append(ending)
                        .append(section.text().substring(headingLine.length()));
                actions.add(new PruneAction(key, PruneAction.Kind.FLAGGED, "\"" + title + "\" has had no status update for "
                        + days + " days (since " + date.get() + "): " + VERIFY_TAG + " added"));
            } else {
                text.append(section.text());
            }
        }
        return actions.isEmpty() ? PruneOutcome.unchanged(body) : new PruneOutcome(text.toString(), actions, Optional.empty());
    }

    private static Optional<String> status(Section section) {
        for (String line : section.bodyLines()) {
            Matcher m = STATUS.matcher(line);
            if (m.matches()) {
                return Optional.of(m.group(1).trim());
            }
        }
        return Optional.empty();
    }

    private static Optional<LocalDate> date(String status) {
        Matcher m = DATE.matcher(status);
        return m.find() ? TimestampLine.isoDate(m.group(1)) : Optional.empty();
    }
}
