package dev.forge.memory.cli;

import dev.forge.memory.transfer.TransferProgress;
import java.io.PrintWriter;
import java.util.Map;

/** Draws a transfer's progress as one progress bar per phase (exporting, checking, importing) on stderr. */
final class TransferProgressBar implements TransferProgress, AutoCloseable {

    private static final Map<String, String> TASKS = Map.of("export", "Exporting", "check", "Checking", "import", "Importing");

    private final PrintWriter err;
    private final boolean shown;
    private String phase;
    private ProgressReport report;

    TransferProgressBar(PrintWriter err, boolean shown) {
        this.err = err;
        this.shown = shown;
    }

    @Override
    public void update(String phase, long done, long total) {
        if (!phase.equals(this.phase)) {
            close();
            this.phase = phase;
            report = ProgressReport.on(err, TASKS.getOrDefault(phase, phase), shown);
        }
        report.update(done, total);
    }

    @Override
    public void close() {
        if (report != null) {
            report.close();
            report = null;
        }
    }
}
