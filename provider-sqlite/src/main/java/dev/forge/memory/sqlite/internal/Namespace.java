package dev.forge.memory.sqlite.internal;

import dev.forge.memory.Scope;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * Where the rows of one scope live for one provider: the {@code project}, {@code session} and {@code scope} columns.
 * GLOBAL rows have project and session {@code ''}, PROJECT rows session {@code ''}; project and session ids are never
 * empty, so the three kinds never mix.
 *
 * @param project the project column
 * @param session the session column
 * @param scope   the scope
 */
public record Namespace(String project, String session, Scope scope) {

    /** The scope ids by ordinal: {@link Scope#id()} makes a new string on every call, and every statement binds one. */
    private static final String[] SCOPE_IDS = java.util.Arrays.stream(Scope.values()).map(Scope::id).toArray(String[]::new);

    /** The namespace of {@code scope} for a provider of {@code project} and {@code session}. */
    public static Namespace of(Scope scope, String project, String session) {
        return switch (scope) {
            case SESSION -> new Namespace(project, session, scope);
            case PROJECT -> new Namespace(project, "", scope);
            case GLOBAL -> new Namespace("", "", scope);
        };
    }

    /** The text stored in the scope column. */
    public String scopeId() {
        return SCOPE_IDS[scope.ordinal()];
    }

    /** Binds project, session and scope at {@code index} and the two after it; returns the next free index. */
    public int bind(PreparedStatement statement, int index) throws SQLException {
        statement.setString(index, project);
        statement.setString(index + 1, session);
        statement.setString(index + 2, scopeId());
        return index + 3;
    }

    /** Adds project, session and scope to a parameter list, in the order of {@link #CONDITION}. */
    public void addTo(List<Object> parameters) {
        parameters.add(project);
        parameters.add(session);
        parameters.add(scopeId());
    }

    /** The condition selecting this namespace's rows of table alias {@code e}: three parameters. */
    public static final String CONDITION = "e.project = ? AND e.session = ? AND e.scope = ?";
}
