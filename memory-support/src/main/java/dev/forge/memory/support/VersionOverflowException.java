package dev.forge.memory.support;

import dev.forge.memory.EntryRef;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.Keys;

/**
 * A write refused because the key has no version number left: its stored version (or its last tombstone's) is
 * {@link Long#MAX_VALUE}, which only a store edited by hand (or by another program) can hold. Nothing was written.
 */
public class VersionOverflowException extends InvalidEntryException {
    private static final long serialVersionUID = 1L;

    /** The error for {@code ref}, whose version is {@code version}. */
    public VersionOverflowException(EntryRef ref, long version) {
        super("Key '" + Keys.abbreviate(ref.key()) + "' (" + ref.scope().id() + ") is at version " + version
                + ", the last a version number can take; nothing was written. Number its versions again: export it,"
                + " purge the key (history purge), and import it with versions from 1.");
    }
}
