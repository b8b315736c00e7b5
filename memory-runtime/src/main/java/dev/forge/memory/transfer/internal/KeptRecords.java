package dev.forge.memory.transfer.internal;

import dev.forge.memory.MemoryEntry;
import java.util.ArrayList;
import java.util.List;

/**
 * The records of one read of a source, kept while they fit in a memory budget, so that an import writes what its check
 * pass parsed instead of parsing the input again. Past the budget they are dropped, and the source is read again: an
 * input of any size still imports in bounded memory.
 */
public final class KeptRecords implements RecordSource {

    /** What one kept version costs besides its text, roughly: the objects, tags and metadata around it. */
    private static final long PER_VERSION = 256;

    private final RecordSource source;
    private final long budget;
    private List<Held> held = new ArrayList<>();
    private long used;

    private record Held(long ordinal, String location, Object record) {
    }

    private KeptRecords(RecordSource source, long budget) {
        this.source = source;
        this.budget = budget;
    }

    /**
     * Reads {@code source} once into {@code visitor}, keeping its records up to about {@code budget} bytes.
     *
     * @return the records to read next: these kept ones, or {@code source} itself where they did not fit
     */
    public static RecordSource read(RecordSource source, RecordVisitor visitor, long budget) {
        KeptRecords kept = new KeptRecords(source, budget);
        source.read(new RecordVisitor() {
            @Override
            public void entry(long ordinal, String location, Records.Entry entry) {
                visitor.entry(ordinal, location, entry);
                long size = 0;
                for (MemoryEntry version : entry.chain()) {
                    size += PER_VERSION + 2L * version.value().length();
                }
                kept.keep(ordinal, location, entry, size);
            }

            @Override
            public void relation(long ordinal, String location, Records.Relation relation) {
                visitor.relation(ordinal, location, relation);
                kept.keep(ordinal, location, relation, PER_VERSION);
            }

            @Override
            public void invalid(long ordinal, String location, String message) {
                visitor.invalid(ordinal, location, message);
                kept.keep(ordinal, location, message, PER_VERSION + 2L * message.length());
            }
        });
        return kept.held == null ? source : kept;
    }

    private void keep(long ordinal, String location, Object record, long size) {
        if (held == null) {
            return;
        }
        used += size;
        if (used > budget) {
            held = null;
            return;
        }
        held.add(new Held(ordinal, location, record));
    }

    @Override
    public void read(RecordVisitor visitor) {
        for (Held each : held) {
            if (each.record() instanceof Records.Entry entry) {
                visitor.entry(each.ordinal(), each.location(), entry);
            } else if (each.record() instanceof Records.Relation relation) {
                visitor.relation(each.ordinal(), each.location(), relation);
            } else {
                visitor.invalid(each.ordinal(), each.location(), (String) each.record());
            }
        }
    }

    @Override
    public String describe() {
        return source.describe();
    }
}
