package dev.forge.memory.support;

import dev.forge.memory.ConfigurationException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** How config records write and read their values: enum constants by lower-case name, sizes in their largest unit. */
public final class ConfigValues {

    private ConfigValues() {
    }

    /** The config form of an enum constant: its name in lower case. */
    public static String id(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /**
     * The constant of {@code type} whose {@linkplain #id id} is {@code text}, ignoring case and surrounding spaces.
     *
     * @param key the setting, for the message
     * @throws ConfigurationException for any other text, listing the allowed values
     */
    public static <E extends Enum<E>> E parse(Class<E> type, String key, String text) {
        if (text != null) {
            for (E value : type.getEnumConstants()) {
                if (id(value).equalsIgnoreCase(text.trim())) {
                    return value;
                }
            }
        }
        List<String> ids = ids(type);
        throw new ConfigurationException("'" + key + "' cannot be '" + text + "': use "
                + String.join(", ", ids.subList(0, ids.size() - 1)) + " or " + ids.get(ids.size() - 1) + ".");
    }

    /** The type of an enum setting, as {@link dev.forge.memory.spi.Setting#type()} reads: {@code one of: none, gzip}. */
    public static String choices(Class<? extends Enum<?>> type) {
        return "one of: " + String.join(", ", ids(type));
    }

    private static List<String> ids(Class<? extends Enum<?>> type) {
        return Arrays.stream(type.getEnumConstants()).map(ConfigValues::id).toList();
    }

    /** {@code 8MB} for 8 MiB: the size in the largest unit that divides it exactly, as config reads it back. */
    public static String size(ByteSize size) {
        long bytes = size.bytes();
        String[] units = {"GB", "MB", "KB"};
        for (int i = 0; i < units.length; i++) {
            long factor = 1L << (30 - 10 * i);
            if (bytes != 0 && bytes % factor == 0) {
                return bytes / factor + units[i];
            }
        }
        return Long.toString(bytes);
    }
}
