package dev.forge.memory.postgres.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.postgres.PostgresMemoryProviderFactory;
import dev.forge.memory.postgres.TestPostgres;
import dev.forge.memory.postgres.testserver.LocalPostgres.Server;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.support.SqlParameters;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query's SQL orders its rows as the API orders entries ({@link Query.Order}), so the provider pages them without
 * sorting again: checked on rows written in reverse key order (a scan in physical order would not pass), some keys in
 * two scopes. A prefix query in key order on a store filled in key order (as an import fills it) is served by the
 * unique (namespace, key) index without a sort.
 */
class PgQueryOrderTest {

    private static final int ROWS = 20000;
    private static final String SCHEMA = "query_order";
    private static final String PLAN_SCHEMA = "query_plan";

    @TempDir
    static Path directory;

    private static String database;
    private static MemoryProvider provider;
    private static Connection connection;

    @BeforeAll
    static void fill() throws SQLException {
        database = TestPostgres.newDatabase();
        Map<String, Object> settings = TestPostgres.connection(database);
        settings.put("schema", SCHEMA);
        ProviderContext context = ProviderContext.builder().config(ProviderConfig.of(settings)).projectId("p")
                .sessionId("s").baseDirectory(directory).forgeHome(directory.resolve("home")).build();
        provider = new PostgresMemoryProviderFactory().open(context);
        Server server = TestPostgres.server();
        connection = DriverManager.getConnection(server.jdbcUrl(database), server.user(), server.password());
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET search_path TO " + SCHEMA);
            // keys in reverse order of insertion; updated_at in an order of its own; a few keys in every scope
            statement.execute("INSERT INTO entries (project, session, scope, key, value, tags, metadata, created_at,"
                    + " updated_at, version, document) SELECT CASE WHEN g % 100 = 0 THEN '' ELSE 'p' END,"
                    + " CASE WHEN g % 50 = 0 AND g % 100 <> 0 THEN 's' ELSE '' END,"
                    + " CASE WHEN g % 100 = 0 THEN 'global' WHEN g % 50 = 0 THEN 'session' ELSE 'project' END,"
                    + " 'note/' || lpad((" + ROWS + " - g)::text, 5, '0'), convert_to('v', 'UTF8'), '[]', '{}',"
                    + " 0, (g * 7919) % 1000, 1, to_tsvector('english', 'v') FROM generate_series(1, " + ROWS + ") g"
                    );
            // the same keys again in GLOBAL: ties of key that the scope orders
            statement.execute("INSERT INTO entries (project, session, scope, key, value, tags, metadata, created_at,"
                    + " updated_at, version, document) SELECT '', '', 'global', 'note/' || lpad((" + ROWS + " - g)::text,"
                    + " 5, '0'), convert_to('v', 'UTF8'), '[]', '{}', 0, (g * 7919) % 1000, 1, to_tsvector('english', 'v')"
                    + " FROM generate_series(1, 1000) g ON CONFLICT DO NOTHING");
            statement.execute("ANALYZE entries");
        }
        // a second store filled in key order, as an import writes it (and as the benchmark's is)
        Map<String, Object> plain = TestPostgres.connection(database);
        plain.put("schema", PLAN_SCHEMA);
        new PostgresMemoryProviderFactory().open(ProviderContext.builder().config(ProviderConfig.of(plain)).projectId("p")
                .sessionId("s").baseDirectory(directory).forgeHome(directory.resolve("home")).build()).close();
        try (Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO " + PLAN_SCHEMA + ".entries (project, session, scope, key, value, tags,"
                    + " metadata, created_at, updated_at, version, document) SELECT 'p', '', 'project',"
                    + " 'note/' || lpad(g::text, 5, '0'), convert_to('v', 'UTF8'), '[]', '{}', 0, g, 1,"
                    + " to_tsvector('english', 'v') FROM generate_series(1, " + ROWS + ") g");
            statement.execute("ANALYZE " + PLAN_SCHEMA + ".entries");
        }
    }

    @AfterAll
    static void close() throws SQLException {
        if (provider != null) {
            provider.close();
        }
        if (connection != null) {
            connection.close();
        }
    }

    private static List<MemoryEntry> rows(Query query) throws SQLException {
        PgSql.Bound sql = PgSql.query(query, "p", "s");
        List<MemoryEntry> rows = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(sql.sql())) {
            SqlParameters.bind(statement, sql.parameters());
            try (ResultSet results = statement.executeQuery()) {
                while (results.next()) {
                    rows.add(PgRows.entry(results, 1, "test"));
                }
            }
        }
        return rows;
    }

    private static String plan(Query query) throws SQLException {
        PgSql.Bound sql = PgSql.query(query, "p", "s");
        StringBuilder plan = new StringBuilder();
        try (Statement path = connection.createStatement()) {
            path.execute("SET search_path TO " + PLAN_SCHEMA);
            try (PreparedStatement statement = connection.prepareStatement("EXPLAIN " + sql.sql())) {
                SqlParameters.bind(statement, sql.parameters());
                try (ResultSet results = statement.executeQuery()) {
                    while (results.next()) {
                        plan.append(results.getString(1)).append('\n');
                    }
                }
            } finally {
                path.execute("SET search_path TO " + SCHEMA);
            }
        }
        return plan.toString();
    }

    @Test
    void the_sql_of_every_order_gives_the_rows_in_the_api_order() throws SQLException {
        for (Query.Order order : Query.Order.values()) {
            for (Query query : List.of(Query.builder().pattern("note/190*").scopes(Scope.PROJECT).order(order).build(),
                    Query.builder().pattern("*").order(order).build(),
                    Query.builder().pattern("*77*").scopes(Scope.PROJECT, Scope.GLOBAL).order(order).build())) {
                List<MemoryEntry> rows = rows(query);
                assertThat(rows).as("%s %s", query.pattern(), order).isNotEmpty()
                        .isSortedAccordingTo(order.comparator());
                assertThat(rows).as("every candidate once").doesNotHaveDuplicates();
            }
        }
    }

    @Test
    void a_prefix_query_in_key_order_reads_the_key_index_without_a_sort() throws SQLException {
        String plan = plan(Query.builder().pattern("note/190*").scopes(Scope.PROJECT).build());
        assertThat(plan).contains("Index Scan using entries_project_session_scope_key_key").doesNotContain("Sort");
        String descending = plan(Query.builder().pattern("note/190*").scopes(Scope.PROJECT).order(Query.Order.KEY_DESC).build());
        assertThat(descending).contains("Index Scan Backward using entries_project_session_scope_key_key")
                .doesNotContain("Sort");
    }

    @Test
    void the_provider_pages_the_ordered_rows() {
        Query query = Query.builder().pattern("note/1*").scopes(Scope.PROJECT, Scope.GLOBAL).order(Query.Order.UPDATED_DESC)
                .offset(7).limit(25).build();
        List<MemoryEntry> all = new ArrayList<>(provider.query(Query.builder().pattern("note/1*")
                .scopes(Scope.PROJECT, Scope.GLOBAL).build()));
        all.sort(Comparator.comparing(MemoryEntry::updatedAt).reversed().thenComparing(Query.Order.KEY.comparator()));
        assertThat(provider.query(query)).containsExactlyElementsOf(all.subList(7, 32));
    }
}
