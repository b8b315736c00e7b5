package dev.forge.memory.cli;

import java.io.PrintWriter;
import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar on stderr for long runs (a {@code progressbar} library bar redrawn in place with carriage returns),
 * or nothing when the user asked for quiet output. Stdout is never touched, so {@code --json} output stays clean.
 */
final class ProgressReport implements AutoCloseable {

    private static final int WIDTH = 100;

    private final PrintWriter err;
    private ProgressBar bar;
    private final String task;
    private final boolean shown;

    private ProgressReport(PrintWriter err, String task, boolean shown) {
        this.err = err;
        this.task = task;
        this.shown = shown;
    }

    /** A bar named {@code task} on {@code err}, or a silent report when {@code shown} is false. */
    static ProgressReport on(PrintWriter err, String task, boolean shown) {
        return new ProgressReport(err, task, shown);
    }

    /** {@code done} of {@code total} are finished; the bar is made on the first report, when the total is known. */
    void update(long done, long total) {
        if (!shown) {
            return;
        }
        if (bar == null) {
            bar = new ProgressBarBuilder()
                    .setTaskName(task)
                    .setInitialMax(total)
                    .setStyle(ProgressBarStyle.ASCII)
                    .setUpdateIntervalMillis(200)
                    .setMaxRenderedLength(WIDTH)
                    .setConsumer(new DelegatingProgressBarConsumer(this::draw, WIDTH))
                    .showSpeed()
                    .build();
        }
        bar.maxHint(total);
        bar.stepTo(done);
    }

    private void draw(String rendered) {
        synchronized (err) {
            err.print('\r');
            err.print(rendered);
            err.flush();
        }
    }

    /** Draws the bar a last time and ends its line. */
    @Override
    public void close() {
        if (bar != null) {
            bar.close();
            synchronized (err) {
                err.println();
                err.flush();
            }
            bar = null;
        }
    }
}
