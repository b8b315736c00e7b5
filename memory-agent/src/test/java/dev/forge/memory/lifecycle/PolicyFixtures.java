package dev.forge.memory.lifecycle;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Documents for the pruning tests: numbered reviews and sessions, and a way to find sections again. */
final class PolicyFixtures {

    /** The adapter's examples are dated 2026-02-10. */
    static final LocalDate TODAY = LocalDate.of(2026, 2, 10);

    private PolicyFixtures() {
    }

    /** Review {@code n}: a heading and two lines of its own, ending with a blank line. */
    static String review(int n) {
        return "## Review #" + n + " - 2026-01-" + String.format("%02d", Math.min(n, 28)) + "\n"
                + "- Finding " + n + ": N+1 query in `orders/views.py:" + (100 + n) + "`\n\n";
    }

    /** Reviews {@code from} to {@code to}, inclusive, in order. */
    static String reviews(int from, int to) {
        StringBuilder b = new StringBuilder();
        for (int n = from; n <= to; n++) {
            b.append(review(n));
        }
        return b.toString();
    }

    /** Session {@code n}: a heading, a summary line and a results line. */
    static String session(int n) {
        return "## Session " + n + "\nRan after refactoring module " + n + ".\n- " + (40 + n) + " passed, " + (n % 3) + " failed\n\n";
    }

    /** Sessions {@code from} to {@code to}, inclusive. */
    static String sessions(int from, int to) {
        StringBuilder b = new StringBuilder();
        for (int n = from; n <= to; n++) {
            b.append(session(n));
        }
        return b.toString();
    }

    /** The review numbers of every {@code ## Review #n} heading in {@code text}, in order. */
    static List<Integer> reviewNumbers(String text) {
        List<Integer> numbers = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^## Review #(\\d+)").matcher(text);
        while (m.find()) {
            numbers.add(Integer.parseInt(m.group(1)));
        }
        return numbers;
    }
}
