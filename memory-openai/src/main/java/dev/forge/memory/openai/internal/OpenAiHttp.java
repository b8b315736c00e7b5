package dev.forge.memory.openai.internal;

import dev.forge.memory.ConfigurationException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * What the clients of OpenAI-compatible services (embeddings, chat completions) share: checking a base URL, a safe
 * excerpt of a response body, and the hint that goes with a refusing status. Not API.
 */
public final class OpenAiHttp {

    /** The longest body excerpt put in a message, in characters. */
    public static final int EXCERPT = 300;

    private OpenAiHttp() {
    }

    /**
     * Checks a base URL (http or https, with a host, without credentials, query or fragment) and drops trailing
     * slashes.
     *
     * @param url   the configured URL
     * @param owner who the setting belongs to, for messages ({@code "the openai model"})
     * @param path  the path added to the base URL, for messages ({@code "/embeddings"})
     * @throws ConfigurationException naming the {@code url} setting and what is wrong with it
     */
    public static String checkBaseUrl(String url, String owner, String path) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new ConfigurationException("'url' of " + owner + " is not a URL: " + e.getMessage());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new ConfigurationException("'url' of " + owner + " must be an http or https URL with a host, "
                    + "such as https://api.openai.com/v1 or http://localhost:11434/v1.");
        }
        if (uri.getRawUserInfo() != null) {
            throw new ConfigurationException("'url' of " + owner + " must not hold credentials; put the key in "
                    + "'api_key'.");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new ConfigurationException("'url' of " + owner + " must not have a query or fragment: give the "
                    + "base URL, to which " + path + " is added.");
        }
        String text = uri.toString();
        while (text.endsWith("/")) {
            text = text.substring(0, text.length() - 1);
        }
        return text;
    }

    /** {@code host[:port]path} of a checked base URL: how messages name the service, without scheme. */
    public static String where(String baseUrl) {
        URI base = URI.create(baseUrl);
        return base.getHost().toLowerCase(Locale.ROOT) + (base.getPort() >= 0 ? ":" + base.getPort() : "")
                + (base.getRawPath() == null ? "" : base.getRawPath());
    }

    /**
     * The start of a body on one line, at most {@value #EXCERPT} characters, with {@code secret} cut out in case the
     * service echoes it; empty for a null body.
     *
     * @param secret the API key, or {@code null}
     */
    public static String excerpt(String body, String secret) {
        if (body == null) {
            return "";
        }
        // Mask before cutting: a key cut in two at the cut would not be found, and half of it shown.
        String text = secret != null && !secret.isEmpty() ? body.replace(secret, "***") : body;
        text = text.length() > EXCERPT * 4 ? text.substring(0, EXCERPT * 4) : text;
        text = text.replaceAll("\\s+", " ").replaceAll("\\p{Cntrl}", "").trim();
        return text.length() > EXCERPT ? text.substring(0, EXCERPT) + "..." : text;
    }

    /**
     * What to check after a refusing status, ending a sentence: {@code ". Check 'api_key'."} and the like, or
     * {@code "."}.
     *
     * @param modelSetting the name of the setting that names the remote model ({@code remote_model}, {@code model})
     */
    public static String hint(int status, String modelSetting) {
        return switch (status) {
            case 401, 403 -> ". Check 'api_key'.";
            case 404 -> ". Check 'url' (it should end in /v1) and '" + modelSetting + "'.";
            case 301, 302, 303, 307, 308 -> ". Redirects are not followed: set 'url' to the address it points to.";
            default -> ".";
        };
    }
}
