/**
 * The sqlite provider beside raw sqlite-jdbc issuing the same statements with the same pragmas on its own file of the
 * same data: set, get, prefix query, keyword search and bulk import.
 */
package dev.forge.memory.benchmarks.sqlite;
