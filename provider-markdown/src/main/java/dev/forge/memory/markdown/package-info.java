/**
 * The {@code markdown} provider, forge-memory's default: one human-editable file per memory version (YAML
 * front-matter and a markdown body), append-only version chains with tombstones, typed relations from the
 * {@code related} front-matter list, and an index kept in memory.
 */
package dev.forge.memory.markdown;
