package dev.forge.memory.hybrid.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.StoreProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What is wrong with a hybrid router: the storage's problems, each child's (prefixed with its role) or that it cannot
 * be reached, every entry whose copy in a child is missing, older than the storage's or left over (see
 * {@link ChildCopies}; the keys whose updates wait in the outbox aside), and the updates that wait in the outbox or
 * failed there.
 */
public final class RouterDoctor {

    private RouterDoctor() {
    }

    /** The problems of {@code router}, the storage's first. */
    public static List<StoreProblem> problems(Router router) {
        List<StoreProblem> problems = new ArrayList<>(router.storage().doctor());
        Outbox outbox = router.outbox().orElse(null);
        List<Outbox.Entry> waiting = outbox == null ? List.of() : outbox.entries();
        for (Secondary child : router.secondaries()) {
            if (child.ifOpen().isEmpty()) {
                problems.add(new StoreProblem(child.label, "cannot be reached; its updates wait in the outbox"));
                continue;
            }
            List<StoreProblem> own;
            try {
                own = child.ifOpen().get().doctor();
            } catch (BackendUnavailableException e) {
                // a child that went down is one of the problems to list, not a reason to list none
                problems.add(new StoreProblem(child.label, "cannot be reached (" + e.getMessage()
                        + "); its updates wait in the outbox"));
                continue;
            }
            for (StoreProblem problem : own) {
                problems.add(new StoreProblem(child.label + ": " + problem.location(), problem.problem()));
            }
            problems.addAll(ChildCopies.problems(child.label, child.role, router.storage(), child.ifOpen().get(),
                    waiting.stream().filter(router::mine).toList(),
                    (ref, work) -> router.locked(ref.key(), ref.scope(), work)));
        }
        if (outbox != null) {
            for (Outbox.Entry entry : waiting) {
                String what = switch (entry.op()) {
                    case CLEAR -> "clearing of " + entry.scope() + " scope";
                    case RESTORE -> "restore of '" + entry.key() + "' in " + entry.scope() + " scope";
                    case SYNC, RESET -> "update of '" + entry.key() + "' in " + entry.scope() + " scope";
                };
                String location = outbox.directory().resolve(Outbox.FILE_NAME) + " (" + entry.child().name()
                        .toLowerCase(Locale.ROOT) + ")";
                problems.add(new StoreProblem(location, entry.failed()
                        ? "the " + what + " failed " + entry.attempts() + " times (" + entry.error()
                          + "); run 'forge-memory reindex' to rebuild the child from the storage"
                        : "the " + what + " waits for the child to answer again"));
            }
        }
        return problems;
    }
}
