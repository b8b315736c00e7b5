package dev.forge.memory.postgres.internal;

import dev.forge.memory.ConfigurationException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Where a PostgreSQL server is and how to log in, parsed from the {@code url} setting: the libpq form
 * {@code postgresql://[user[:password]@]host[:port]/database[?param=value...]} (also {@code postgres://}) or the JDBC
 * form {@code jdbc:postgresql://host[:port]/database[?user=...&password=...]}. Its text never shows the password.
 *
 * @param host       host name or address
 * @param port       TCP port
 * @param database   database name
 * @param user       login from the URL, or null
 * @param password   password from the URL, or null
 * @param parameters the URL's other query parameters, passed to the driver as they are
 */
public record Endpoint(String host, int port, String database, String user, String password, Map<String, String> parameters) {

    /** The port PostgreSQL listens on unless told otherwise. */
    public static final int DEFAULT_PORT = 5432;

    private static final Pattern URL_PASSWORD = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://[^:/@\\s]*:)[^@\\s]*(@)");
    private static final Pattern PARAM_PASSWORD = Pattern.compile("(?i)([?&]password=)[^&\\s]*");

    /** Copies the parameters. */
    public Endpoint {
        parameters = Map.copyOf(parameters);
    }

    /**
     * Parses a {@code url} setting.
     *
     * @throws ConfigurationException for a URL that is not a single-host PostgreSQL URL naming a database, with the
     *                                forms that work (and the password masked)
     */
    public static Endpoint parse(String url) {
        String text = url.strip();
        String lower = text.toLowerCase(Locale.ROOT);
        String rest;
        if (lower.startsWith("jdbc:postgresql://")) {
            rest = text.substring("jdbc:postgresql://".length());
        } else if (lower.startsWith("postgresql://")) {
            rest = text.substring("postgresql://".length());
        } else if (lower.startsWith("postgres://")) {
            rest = text.substring("postgres://".length());
        } else {
            throw invalid(url, "it does not start with postgresql://, postgres:// or jdbc:postgresql://");
        }
        URI uri;
        try {
            uri = new URI("postgresql://" + rest);
        } catch (URISyntaxException e) {
            throw invalid(url, "it is not a valid URL (" + e.getReason() + "; write special characters of a password as %XX)");
        }
        if (uri.getHost() == null) {
            throw invalid(url, "it names no host, or several (one host:port only)");
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        String database = decode(path.startsWith("/") ? path.substring(1) : path);
        if (database.isEmpty() || database.contains("/")) {
            throw invalid(url, "it names no database (…/DATABASE at the end)");
        }
        String user = null;
        String password = null;
        if (uri.getRawUserInfo() != null) {
            String info = uri.getRawUserInfo();
            int colon = info.indexOf(':');
            user = decode(colon < 0 ? info : info.substring(0, colon));
            password = colon < 0 ? null : decode(info.substring(colon + 1));
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        if (uri.getRawQuery() != null) {
            for (String pair : uri.getRawQuery().split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = decode(eq < 0 ? pair : pair.substring(0, eq));
                String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
                switch (name) {
                    case "user" -> user = value;
                    case "password" -> password = value;
                    default -> parameters.put(name, value);
                }
            }
        }
        return new Endpoint(uri.getHost(), uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort(), database,
                user == null || user.isEmpty() ? null : user, password, parameters);
    }

    private static String decode(String text) {
        return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static ConfigurationException invalid(String url, String why) {
        return new ConfigurationException("'url' is " + mask(url) + ", which the postgres provider cannot use: " + why
                + ". Write postgresql://user:password@host:5432/database or jdbc:postgresql://host:5432/database.",
                null, "url", null);
    }

    /** The JDBC URL of this endpoint, without login or password (they go to the driver as properties). */
    public String jdbcUrl() {
        String address = host.contains(":") ? "[" + host + "]" : host;
        return "jdbc:postgresql://" + address + ":" + port + "/" + database;
    }

    /** {@code host:port}, for messages. */
    public String address() {
        return host + ":" + port;
    }

    /** {@code host:port/database}, for messages and {@code toString}: never the login's password. */
    @Override
    public String toString() {
        return address() + "/" + database;
    }

    /** {@code text} with the password of any URL in it ({@code scheme://user:password@}, {@code ?password=}) replaced by {@code ****}. */
    public static String mask(String text) {
        if (text == null) {
            return null;
        }
        return PARAM_PASSWORD.matcher(URL_PASSWORD.matcher(text).replaceAll("$1****$2")).replaceAll("$1****");
    }
}
