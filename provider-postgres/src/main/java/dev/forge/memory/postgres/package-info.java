/**
 * The {@code postgres} provider: memories in a PostgreSQL database that many processes on many machines share, with
 * keyword search on {@code tsvector}, SQL transactions, history and typed relations.
 */
package dev.forge.memory.postgres;
