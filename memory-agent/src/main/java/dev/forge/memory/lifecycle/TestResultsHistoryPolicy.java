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
 * {@code test_results_history}: each session is a section starting at {@code ## Session} or {@code ## Test Session}.
 * Sessions are appended, so the last ones are the newest; the newest {@link #keep()} stay, the older ones are
 * folded into one {@code ## Historical Summary} section at the bottom: one bullet per session, its heading text and
 * its first line mentioning passed, failed or tests (else its first non-empty line). An existing summary keeps its
 * lines and gets the new bullets after them. With {@link #keep()} sessions or fewer nothing changes, so pruning twice
 * is pruning once.
 */
public final class TestResultsHistoryPolicy extends KeepNewestPolicy {

    /** The file type this policy prunes. */
    public static final String FILE_TYPE = "test_results_history";
    /** How many sessions stay by default. */
    public static final int DEFAULT_KEEP = 15;
    /** The heading of the summary section. */
    public static final String SUMMARY_HEADING = "## Historical Summary";

    private static final Pattern SESSION = Pattern.compile("## (?:Test )?Session(?![A-Za-z0-9_]).*");
    private static final Pattern SUMMARY = Pattern.compile("## Historical Summary\\s*");
    private static final Pattern RESULT_LINE = Pattern.compile("\\b(?:passed|failed|tests?)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern LIST_MARKER = Pattern.compile("^\\s*(?:[-*+]|\\d+[.)])\\s+");

    /** Keeps the {@value #DEFAULT_KEEP} newest sessions. */
    public TestResultsHistoryPolicy() {
        this(DEFAULT_KEEP);
    }

    /** Keeps the {@code keep} newest sessions (at least 1). */
    public TestResultsHistoryPolicy(int keep) {
        super(FILE_TYPE, "session", keep);
    }

    @Override
    public PruneOutcome prune(LayeredKey key, String body, LocalDate today) {
        Sections parts = Sections.split(body, line -> SESSION.matcher(line).matches() || SUMMARY.matcher(line).matches());
        List<Section> sessions = new ArrayList<>();
        List<String> summaryLines = new ArrayList<>();
        for (Section section : parts.sections()) {
            if (SUMMARY.matcher(section.heading()).matches()) {
                section.bodyLines().stream().filter(line -> !line.isBlank()).forEach(summaryLines::add);
            } else {
                sessions.add(section);
            }
        }
        if (sessions.size() <= keep()) {
            return PruneOutcome.unchanged(body);
        }
        int folded = sessions.size() - keep();
        List<PruneAction> actions = new ArrayList<>();
        for (Section session : sessions.subList(0, folded)) {
            summaryLines.add("- " + bullet(session));
            actions.add(new PruneAction(key, PruneAction.Kind.SUMMARIZED, "\"" + session.heading()
                    + "\" folded into the Historical Summary (keeping the " + keep() + " newest sessions)"));
        }
        StringBuilder text = new StringBuilder(parts.preamble());
        sessions.subList(folded, sessions.size()).forEach(s -> text.append(s.text()));
        if (text.length() > 0 && !text.toString().endsWith("\n")) {
            text.append('\n');
        }
        if (text.length() > 0 && !text.toString().endsWith("\n\n")) {
            text.append('\n');
        }
        text.append(SUMMARY_HEADING).append("\n\n");
        summaryLines.forEach(line -> text.append(line).append('\n'));
        return new PruneOutcome(text.toString(), actions, Optional.empty());
    }

    private static String bullet(Section session) {
        String title = session.heading().substring(3).trim();
        List<String> lines = session.bodyLines().stream().filter(line -> !line.isBlank()).toList();
        Optional<String> detail = lines.stream().filter(line -> RESULT_LINE.matcher(line).find()).findFirst()
                .or(() -> lines.stream().findFirst());
        return detail.map(d -> title + ": " + LIST_MARKER.matcher(d).replaceFirst("").trim()).orElse(title);
    }
}
