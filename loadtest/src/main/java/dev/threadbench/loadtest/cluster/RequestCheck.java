package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.plan.Plan;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What an agent checks of each request an order asks it to send, beside where it goes ({@link AllowedTargets}): the
 * requests compare's plan parser accepts, no others. Without it a key holder could aim an allowed address at another
 * virtual host ({@code Host}), or smuggle a second request through an allowed proxy (CR or LF in a header).
 */
final class RequestCheck {

    private static final Set<String> METHODS = Set.of("GET", "HEAD");
    /** RFC 9110's tchar, besides letters and digits: what a header name is made of. */
    private static final String TOKEN_SYMBOLS = "!#$%&'*+-.^_`|~";

    private RequestCheck() {}

    /** null when the agent may send {@code step}; else why not, in one line. */
    static String refusal(Plan.Step step) {
        URI url = step.url();
        if (url == null || !"http".equalsIgnoreCase(url.getScheme()) || url.getHost() == null) {
            return "request " + printable(step.name()) + ": " + url + " is not an http:// URL with a host";
        }
        String request = "request " + printable(step.name());
        if (step.port() < 1 || step.port() > 65535) {
            return request + ": " + url + " has no TCP port (1-65535)";
        }
        String method = step.method() == null ? "" : step.method().toUpperCase(Locale.ROOT);
        if (!METHODS.contains(method)) {
            return request + ": method " + printable(step.method()) + " (an agent sends GET or HEAD only)";
        }
        for (Map.Entry<String, String> header : step.headers().entrySet()) {
            String name = header.getKey();
            String value = header.getValue();
            if (name == null || name.isEmpty() || !name.chars().allMatch(RequestCheck::tokenCharacter)) {
                return request + ": header name '" + printable(name)
                        + "' is not a token (RFC 9110: letters, digits and " + TOKEN_SYMBOLS + ")";
            }
            if (value == null || value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
                return request + ": header " + name + " has a CR, LF or NUL in its value";
            }
            if (name.equalsIgnoreCase("host") && !hostOfUrl(value.strip(), step)) {
                return request + ": header Host '" + printable(value) + "' is not " + step.hostHeader()
                        + ", the URL's own";
            }
        }
        return null;
    }

    private static boolean tokenCharacter(int c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || TOKEN_SYMBOLS.indexOf(c) >= 0;
    }

    /** The URL's host, with its port or (at port 80) without. */
    private static boolean hostOfUrl(String value, Plan.Step step) {
        String written = step.hostHeader();
        String withPort = written.endsWith(":" + step.port()) ? written : written + ":" + step.port();
        return value.equalsIgnoreCase(written) || value.equalsIgnoreCase(withPort);
    }

    /** Text from the order for a one-line message: control characters (a terminal's escapes) shown as \\uXXXX. */
    private static String printable(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder();
        text.chars().forEach(c -> out.append(c < 0x20 || c == 0x7f ? String.format("\\u%04x", c) : (char) c));
        return out.toString();
    }
}
