/**
 * For provider authors and routers: the {@link dev.forge.memory.spi.MemoryProviderFactory} service, the
 * context a provider is opened with, typed config binding, discovery, and the shared rules and helpers
 * (key and entry validation, safe file names, keyword scoring, graph walks) every provider uses the same way.
 */
package dev.forge.memory.spi;
