package dev.forge.memory.graph;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.graph.internal.GraphStore;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.exceptions.ClientException;
import org.neo4j.driver.exceptions.ServiceUnavailableException;
import org.neo4j.driver.exceptions.SessionExpiredException;
import org.neo4j.driver.exceptions.TransientException;

/**
 * Which driver errors mean "the server cannot serve us now" ({@code BackendUnavailableException}, so a hybrid router
 * queues the update and retries) rather than a failed statement ({@code StorageException}). Found by
 * {@code Neo4jRestartUnderHybridTest}: a write that reached Neo4j while it shut down got "Database 'neo4j'
 * unavailable", a transient error, and was reported as a storage failure.
 */
class UnavailableErrorsTest {

    @Test
    void an_unreachable_server_an_expired_session_and_an_unavailable_database_are_unavailable() {
        assertThat(GraphStore.unavailable(new ServiceUnavailableException("connection refused"))).isTrue();
        assertThat(GraphStore.unavailable(new SessionExpiredException("gone"))).isTrue();
        assertThat(GraphStore.unavailable(new TransientException("Neo.TransientError.General.DatabaseUnavailable",
                "Database 'neo4j' unavailable"))).isTrue();
    }

    @Test
    void other_transient_and_client_errors_are_not() {
        assertThat(GraphStore.unavailable(new TransientException("Neo.TransientError.Transaction.DeadlockDetected",
                "deadlock"))).isFalse();
        assertThat(GraphStore.unavailable(new ClientException("Neo.ClientError.Statement.SyntaxError", "bad"))).isFalse();
    }
}
