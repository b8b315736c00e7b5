package dev.forge.memory.transfer;

/** Told how far an export, import or migration is; called from the working thread. */
@FunctionalInterface
public interface TransferProgress {

    /** Ignores every report. */
    TransferProgress NONE = (phase, done, total) -> { };

    /**
     * {@code done} records of {@code phase} are finished.
     *
     * @param phase what is being done: {@code "export"}, {@code "check"} (reading the input through once before
     *              anything is written) or {@code "import"}
     * @param total how many there are, or -1 while unknown
     */
    void update(String phase, long done, long total);
}
