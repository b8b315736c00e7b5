package dev.forge.memory.markdown.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which memory files of a directory its {@link Shelf} reads, so that a call about one key costs that key's files and
 * not the directory's: none at first; once a key is asked for, the files whose name carries its fingerprint
 * ({@link VersionIds}) and every file whose name carries none (a hand-written or older file may belong to any key);
 * every file once a call needs them all (a query, a search, relations, doctor).
 *
 * <p>A key's versions that the provider wrote all carry its fingerprint, so the files admitted for a key hold its
 * whole chain, whatever other files say. Only a file whose {@code key} a person changed to another key, keeping its
 * name, is outside it: it shows under its new key once every file is read, as a copy under a new name would at once.
 *
 * <p>Keeps the names the last directory listing found but did not admit, by fingerprint, so that admitting a key
 * while the directory is unchanged reads its files without listing the directory again. Not thread-safe: the
 * shelf's caller guards it.
 */
final class Admission {

    /** What {@link VersionIds#fingerprintOf} gives for a name that carries no fingerprint. */
    private static final String NO_FINGERPRINT = "";

    private boolean complete;
    private final Set<String> fingerprints = new HashSet<>();
    // Set when something was admitted since the files were last read: the next catch-up reads them.
    private boolean pending;
    // Names of the last listing not admitted then, by the fingerprint they carry ("" for none).
    private final Map<String, List<String>> waiting = new HashMap<>();
    // The fingerprints admitted since the files were last read, NO_FINGERPRINT with the first.
    private final Set<String> admittedSince = new HashSet<>();

    /** Admits the files of {@code key}. */
    void admit(String key) {
        String fingerprint = VersionIds.fingerprint(key);
        if (!complete && fingerprints.add(fingerprint)) {
            if (fingerprints.size() == 1) {
                admittedSince.add(NO_FINGERPRINT);
            }
            admittedSince.add(fingerprint);
            pending = true;
        }
    }

    /** Admits every file. */
    void admitAll() {
        if (!complete) {
            complete = true;
            pending = true;
        }
    }

    /** Whether every file is admitted. */
    boolean complete() {
        return complete;
    }

    /** Whether files were admitted that were not read yet. */
    boolean pending() {
        return pending;
    }

    /** Whether nothing is admitted yet, so that no file is read. */
    boolean none() {
        return !complete && fingerprints.isEmpty();
    }

    /** Whether the file {@code name} (a memory file name) is read. */
    boolean admits(String name) {
        return complete || !fingerprints.isEmpty() && admitsFingerprint(fingerprintOf(name));
    }

    private boolean admitsFingerprint(String fingerprint) {
        return complete || fingerprint.equals(NO_FINGERPRINT) || fingerprints.contains(fingerprint);
    }

    /** A new listing of the directory starts: it reads what is admitted, and records the rest with {@link #held}. */
    void listing() {
        waiting.clear();
        admittedSince.clear();
        pending = false;
    }

    /** Records a file the current listing found but did not admit. */
    void held(String name) {
        waiting.computeIfAbsent(fingerprintOf(name), f -> new ArrayList<>()).add(name);
    }

    /** The names of the last listing admitted since it was made; they count as read from now on. */
    List<String> takeAdmitted() {
        pending = false;
        List<String> names = new ArrayList<>();
        if (complete) {
            waiting.values().forEach(names::addAll);
            waiting.clear();
        } else {
            for (String fingerprint : admittedSince) {
                names.addAll(waiting.getOrDefault(fingerprint, List.of()));
                waiting.remove(fingerprint);
            }
        }
        admittedSince.clear();
        return names;
    }

    private static String fingerprintOf(String name) {
        return VersionIds.fingerprintOf(name.substring(0, name.length() - MemoryFileCodec.FILE_SUFFIX.length()));
    }
}
