package dev.forge.memory.lifecycle;

import dev.forge.memory.InvalidRequestException;

/** What the policies that keep the newest sections of an appended log share: their file type and how many stay. */
abstract class KeepNewestPolicy implements PrunePolicy {

    private final String fileType;
    private final int keep;

    KeepNewestPolicy(String fileType, String sections, int keep) {
        if (keep < 1) {
            throw new InvalidRequestException("A " + fileType + " must keep at least 1 " + sections + ", was " + keep + ".");
        }
        this.fileType = fileType;
        this.keep = keep;
    }

    /** How many of the newest sections stay as they are. */
    public int keep() {
        return keep;
    }

    @Override
    public String fileType() {
        return fileType;
    }
}
