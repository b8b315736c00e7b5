/**
 * Implementation of the sqlite provider: connections and locking, schema migrations, the SQL of every operation and
 * the translation of queries and searches into it. Not an API.
 */
package dev.forge.memory.sqlite.internal;
