package dev.forge.memory;

/**
 * The size limits a provider enforces on writes. A write over a limit fails with
 * {@link ValueTooLargeException} or {@link InvalidEntryException} and changes nothing.
 *
 * @param maxKeyLength     the longest key, in code points (512 for every provider)
 * @param maxValueBytes    the largest value, in UTF-8 bytes
 * @param maxTags          the most tags on one entry
 * @param maxTagLength     the longest tag, in code points
 * @param maxMetadataBytes the largest metadata map, as compact UTF-8 JSON
 */
public record Limits(int maxKeyLength, long maxValueBytes, int maxTags, int maxTagLength, int maxMetadataBytes) {

    /** The longest key any provider accepts. */
    public static final int MAX_KEY_LENGTH = 512;

    /** The smallest value limit any provider may have: every provider stores values of 64 KiB. */
    public static final long MIN_VALUE_BYTES = 64 * 1024;

    /** The defaults: 1 MiB values, 256 tags of up to 128 code points, 64 KiB of metadata. */
    public static final Limits DEFAULT = new Limits(MAX_KEY_LENGTH, 1024 * 1024, 256, 128, 64 * 1024);

    /** Checks that every limit is positive ({@code maxTags} may be 0: no tags at all). */
    public Limits {
        if (maxKeyLength < 1 || maxValueBytes < 1 || maxTags < 0 || maxTagLength < 1 || maxMetadataBytes < 2) {
            throw new IllegalArgumentException("limits must be positive");
        }
    }

    /** These limits with another value limit. */
    public Limits withMaxValueBytes(long bytes) {
        return new Limits(maxKeyLength, bytes, maxTags, maxTagLength, maxMetadataBytes);
    }
}
