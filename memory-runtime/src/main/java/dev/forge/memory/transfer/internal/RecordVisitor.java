package dev.forge.memory.transfer.internal;

/** Receives the records of a source in order; {@code ordinal} counts records from 0, invalid ones included. */
public interface RecordVisitor {

    /** A decoded entry. */
    void entry(long ordinal, String location, Records.Entry entry);

    /** A decoded relation. */
    void relation(long ordinal, String location, Records.Relation relation);

    /** A record that could not be decoded (a broken line, a missing field...). */
    void invalid(long ordinal, String location, String message);
}
