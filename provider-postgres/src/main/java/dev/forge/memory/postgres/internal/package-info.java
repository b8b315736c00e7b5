/**
 * The postgres provider's implementation: connection pool, schema migrations, SQL of entries, search, graph and
 * transactions. Not an API: classes here change without notice.
 */
package dev.forge.memory.postgres.internal;
