package dev.forge.memory.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;
import org.testcontainers.neo4j.Neo4jContainer;

/** The test servers themselves: the shared one answers Cypher, and each way of getting one works where it can. */
class TestServerTest {

    @Test
    void shared_server_answers_cypher_over_bolt() {
        TestNeo4j.Server server = TestNeo4j.server();
        System.out.println("Neo4j test server: " + server.kind() + " at " + server.uri() + ", started in "
                + server.startTime().toMillis() + " ms");
        try (Driver driver = GraphDatabase.driver(server.uri(), AuthTokens.none()); Session session = driver.session()) {
            assertThat(session.run("RETURN 1 AS one").single().get("one").asInt()).isEqualTo(1);
        }
    }

    @Test
    void harness_starts_and_closes_in_process() {
        long started = System.nanoTime();
        var harness = TestNeo4j.startHarness();
        long up = System.nanoTime();
        try (Driver driver = GraphDatabase.driver(harness.boltURI(), AuthTokens.none()); Session session = driver.session()) {
            assertThat(session.run("RETURN 2 AS two").single().get("two").asInt()).isEqualTo(2);
        } finally {
            long closing = System.nanoTime();
            harness.close();
            System.out.printf("harness: start %d ms, close %d ms%n", (up - started) / 1_000_000,
                    (System.nanoTime() - closing) / 1_000_000);
        }
    }

    @Test
    void testcontainers_neo4j_answers_where_docker_runs() {
        assumeTrue(TestNeo4j.dockerAvailable(), "no Docker engine here: the Testcontainers Neo4j path is not exercised");
        try (Neo4jContainer container = new Neo4jContainer(TestNeo4j.IMAGE).withoutAuthentication()) {
            container.start();
            try (Driver driver = GraphDatabase.driver(container.getBoltUrl(), AuthTokens.none());
                 Session session = driver.session()) {
                assertThat(session.run("RETURN 3 AS three").single().get("three").asInt()).isEqualTo(3);
            }
        }
    }
}
