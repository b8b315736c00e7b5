package dev.forge.memory.markdown.internal;

import java.io.IOException;

/** Work on the files of a store, which may fail with an {@link IOException}. */
@FunctionalInterface
interface IoWork<T> {

    T run() throws IOException;
}
