/**
 * A PostgreSQL server for tests and benchmarks, with no test framework on the class path: {@code PG_URL} when set, else
 * one started from the machine's PostgreSQL binaries in a temporary directory. Shipped in provider-postgres's test jar.
 */
package dev.forge.memory.postgres.testserver;
