/**
 * JMH pairs of the postgres provider beside raw JDBC on the same server (PG_URL, else one started from the machine's PostgreSQL binaries): get, set, query, keyword search and
 * bulk import.
 */
package dev.forge.memory.benchmarks.postgres;
