/**
 * The {@code sqlite} provider: every memory of a project (and its sessions, and GLOBAL ones) in one embedded SQLite
 * database file, with versioned schema migrations, FTS5 keyword search, transactions, history with tombstones and
 * typed relations.
 */
package dev.forge.memory.sqlite;
