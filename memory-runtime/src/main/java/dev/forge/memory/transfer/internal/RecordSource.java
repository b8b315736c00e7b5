package dev.forge.memory.transfer.internal;

/** Records to import, readable more than once (an import reads them through once to check them, then to write). */
public interface RecordSource {

    /**
     * Visits every record in order: entries, then relations for sources this code writes (files written by hand may
     * mix them).
     *
     * @throws dev.forge.memory.transfer.TransferFileException if the source as a whole cannot be read (broken JSON
     *                                                         structure, a wrong header)
     */
    void read(RecordVisitor visitor);

    /** What the source is, for messages: a file name, or a provider. */
    String describe();
}
