package dev.forge.memory.openai.internal;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cuts secrets out of what a model says: messages, response excerpts and the causes it keeps. A secret is masked as it
 * was configured and as a service may echo it back (URL-encoded, JSON-escaped). Immutable.
 */
public final class Redaction {

    /** What a masked secret reads as. */
    public static final String MASK = "****";

    private static final Redaction NONE = new Redaction(List.of());

    private final List<String> secrets;

    private Redaction(List<String> secrets) {
        this.secrets = secrets;
    }

    /** Masks {@code secrets} (blank ones are ignored). */
    public static Redaction of(Collection<String> secrets) {
        Set<String> forms = new LinkedHashSet<>();
        for (String secret : secrets) {
            if (secret == null || secret.isBlank()) {
                continue;
            }
            forms.add(secret);
            forms.add(URLEncoder.encode(secret, StandardCharsets.UTF_8));
            forms.add(URLEncoder.encode(secret, StandardCharsets.UTF_8).replace("+", "%20"));
            forms.add(jsonEscaped(secret));
        }
        if (forms.isEmpty()) {
            return NONE;
        }
        List<String> ordered = new ArrayList<>(forms);
        // the longest first: a secret that holds another is masked whole, not around the shorter one
        ordered.sort(Comparator.comparingInt(String::length).reversed());
        return new Redaction(List.copyOf(ordered));
    }

    /** Masks nothing. */
    public static Redaction none() {
        return NONE;
    }

    /** {@code text} with every secret replaced by {@value #MASK}; null stays null. */
    public String apply(String text) {
        if (text == null || secrets.isEmpty()) {
            return text;
        }
        String masked = text;
        for (String secret : secrets) {
            masked = masked.replace(secret, MASK);
        }
        return masked;
    }

    /** Whether {@code text} holds a secret. */
    public boolean reveals(String text) {
        return text != null && secrets.stream().anyMatch(text::contains);
    }

    /**
     * {@code cause} if no message in its chain (causes and suppressed ones included) holds a secret; otherwise a copy
     * of the chain with the messages masked, each link saying which exception it stands for and keeping its stack
     * trace. Null stays null.
     */
    public Throwable cause(Throwable cause) {
        if (cause == null || !revealedIn(cause, new IdentityHashMap<>())) {
            return cause;
        }
        return masked(cause, new IdentityHashMap<>());
    }

    private boolean revealedIn(Throwable t, Map<Throwable, Boolean> seen) {
        if (t == null || seen.put(t, Boolean.TRUE) != null) {
            return false;
        }
        if (reveals(t.getMessage()) || reveals(t.toString()) || revealedIn(t.getCause(), seen)) {
            return true;
        }
        for (Throwable suppressed : t.getSuppressed()) {
            if (revealedIn(suppressed, seen)) {
                return true;
            }
        }
        return false;
    }

    private Throwable masked(Throwable t, Map<Throwable, Throwable> copies) {
        Throwable done = copies.get(t);
        if (done != null) {
            return done;
        }
        MaskedException copy = new MaskedException(t.getClass().getName() + ": " + apply(String.valueOf(t.getMessage())));
        copies.put(t, copy);
        copy.setStackTrace(t.getStackTrace());
        if (t.getCause() != null && t.getCause() != t) {
            copy.initCause(masked(t.getCause(), copies));
        }
        for (Throwable suppressed : t.getSuppressed()) {
            copy.addSuppressed(masked(suppressed, copies));
        }
        return copy;
    }

    private static String jsonEscaped(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '/' -> out.append("\\/");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    /** Stands for an exception whose message held a secret: its class name and masked message, its stack trace. */
    static final class MaskedException extends Exception {
        private static final long serialVersionUID = 1L;

        MaskedException(String message) {
            super(message, null, true, true);
        }
    }
}
