package dev.forge.memory.sqlite.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The prepared statements one connection keeps: reused, bounded, dropped after a failure, closed with the connection. */
class StatementCacheTest {

    @TempDir
    Path directory;

    private Connection connection;
    private StatementCache cache;

    @BeforeEach
    void open() throws SQLException {
        connection = DriverManager.getConnection("jdbc:sqlite:" + directory.resolve("cache.db"));
        cache = new StatementCache(connection);
    }

    @AfterEach
    void close() throws SQLException {
        cache.close();
        connection.close();
    }

    private static long one(PreparedStatement statement) throws SQLException {
        try (ResultSet rows = statement.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }

    @Test
    void a_statement_is_prepared_once_and_reused_with_new_parameters() throws SQLException {
        PreparedStatement first = cache.prepare("SELECT ? + 1");
        first.setLong(1, 1);
        assertThat(one(first)).isEqualTo(2);
        cache.endUse(false);
        PreparedStatement again = cache.prepare("SELECT ? + 1");
        assertThat(again).isSameAs(first);
        again.setLong(1, 41);
        assertThat(one(again)).isEqualTo(42);
        cache.endUse(false);
    }

    @Test
    void beyond_its_capacity_the_least_recently_used_statement_is_closed() throws SQLException {
        List<PreparedStatement> prepared = new ArrayList<>();
        for (int i = 0; i < StatementCache.CAPACITY; i++) {
            prepared.add(cache.prepare("SELECT " + i));
        }
        cache.prepare("SELECT 0"); // used again: the least recently used is now SELECT 1
        cache.prepare("SELECT 'one more'");
        cache.endUse(false);
        assertThat(cache.size()).isEqualTo(StatementCache.CAPACITY);
        assertThat(prepared.get(1).isClosed()).isTrue();
        assertThat(prepared.get(0).isClosed()).isFalse();
        assertThat(cache.prepare("SELECT 0")).isSameAs(prepared.get(0));
        assertThat(cache.prepare("SELECT 1")).isNotSameAs(prepared.get(1));
        assertThat(one(cache.prepare("SELECT 1"))).isEqualTo(1);
        cache.endUse(false);
    }

    @Test
    void the_statements_of_a_failed_use_are_closed_and_prepared_again() throws SQLException {
        PreparedStatement kept = cache.prepare("SELECT 1");
        cache.endUse(false);
        PreparedStatement failing = cache.prepare("SELECT 2");
        cache.endUse(true);
        assertThat(failing.isClosed()).isTrue();
        assertThat(kept.isClosed()).as("not used by the failed work").isFalse();
        PreparedStatement fresh = cache.prepare("SELECT 2");
        assertThat(fresh).isNotSameAs(failing);
        assertThat(one(fresh)).isEqualTo(2);
        cache.endUse(false);
    }

    @Test
    void closing_closes_every_statement_kept() throws SQLException {
        PreparedStatement first = cache.prepare("SELECT 1");
        PreparedStatement second = cache.prepare("SELECT 2");
        cache.endUse(false);
        cache.close();
        assertThat(first.isClosed()).isTrue();
        assertThat(second.isClosed()).isTrue();
        assertThat(cache.size()).isZero();
    }
}
