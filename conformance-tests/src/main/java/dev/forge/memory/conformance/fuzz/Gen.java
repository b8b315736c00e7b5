package dev.forge.memory.conformance.fuzz;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A generator of fuzz inputs: draws each value from the seeded {@link Random} it is given, so one seed always gives
 * the same values. {@link FuzzInputs} holds the ready-made generators; these combinators build others from them.
 *
 * @param <T> the type of the values drawn
 */
@FunctionalInterface
public interface Gen<T> {

    /** Draws one value, taking all its randomness from {@code random}. */
    T next(Random random);

    /** The values of this generator mapped by {@code mapper}. */
    default <R> Gen<R> map(Function<? super T, ? extends R> mapper) {
        return random -> mapper.apply(next(random));
    }

    /** The values of this generator that pass {@code filter}; fails after 10,000 misses in a row. */
    default Gen<T> filter(Predicate<? super T> filter) {
        return random -> {
            for (int i = 0; i < 10_000; i++) {
                T value = next(random);
                if (filter.test(value)) {
                    return value;
                }
            }
            throw new IllegalStateException("the filter rejected 10,000 values in a row");
        };
    }

    /** Lists of {@code minSize} to {@code maxSize} values of this generator; both extreme sizes come up often. */
    default Gen<List<T>> list(int minSize, int maxSize) {
        return random -> {
            int size = size(random, minSize, maxSize);
            List<T> list = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                list.add(next(random));
            }
            return list;
        };
    }

    /** Maps of up to {@code maxSize} entries (fewer when keys repeat) with keys from {@code keys}. */
    static <K, V> Gen<Map<K, V>> maps(Gen<K> keys, Gen<V> values, int maxSize) {
        return random -> {
            int size = size(random, 0, maxSize);
            Map<K, V> map = new HashMap<>();
            for (int i = 0; i < size; i++) {
                map.put(keys.next(random), values.next(random));
            }
            return map;
        };
    }

    /** One of {@code values}, picked by index (never hashed: the hostile metadata nests too deep to hash). */
    static <T> Gen<T> of(List<? extends T> values) {
        List<? extends T> copy = List.copyOf(values);
        return random -> copy.get(random.nextInt(copy.size()));
    }

    /** One of {@code values}. */
    @SafeVarargs
    static <T> Gen<T> of(T... values) {
        return of(List.of(values));
    }

    /** An int from {@code min} to {@code max} inclusive, with both bounds (the edge cases) drawn more often. */
    static Gen<Integer> between(int min, int max) {
        return random -> size(random, min, max);
    }

    /** A value of one of {@code generators}, each as likely as the others. */
    @SafeVarargs
    static <T> Gen<T> oneOf(Gen<? extends T>... generators) {
        List<Gen<? extends T>> copy = List.of(generators);
        return random -> copy.get(random.nextInt(copy.size())).next(random);
    }

    /** A value of {@code first} or {@code second}, chosen in proportion to the weights. */
    static <T> Gen<T> frequency(int firstWeight, Gen<? extends T> first, int secondWeight, Gen<? extends T> second) {
        return frequency(firstWeight, first, secondWeight, second, 0, first);
    }

    /** A value of {@code first}, {@code second} or {@code third}, chosen in proportion to the weights. */
    static <T> Gen<T> frequency(int firstWeight, Gen<? extends T> first, int secondWeight, Gen<? extends T> second,
            int thirdWeight, Gen<? extends T> third) {
        int total = firstWeight + secondWeight + thirdWeight;
        return random -> {
            int pick = random.nextInt(total);
            if (pick < firstWeight) {
                return first.next(random);
            }
            return pick < firstWeight + secondWeight ? second.next(random) : third.next(random);
        };
    }

    /** A number from {@code min} to {@code max}: one time in twenty each bound, else uniform. */
    private static int size(Random random, int min, int max) {
        int roll = random.nextInt(20);
        if (roll == 0 || min == max) {
            return min;
        }
        if (roll == 1) {
            return max;
        }
        return (int) (min + Math.floorMod(random.nextLong(), (long) max - min + 1));
    }
}
