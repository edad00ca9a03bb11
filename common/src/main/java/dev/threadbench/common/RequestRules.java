package dev.threadbench.common;

import java.util.Locale;
import java.util.Set;

/**
 * The rules both servers hold every request head to once their parser has accepted it, before routing,
 * so that they refuse, or serve, the same requests in the same way.
 *
 * <p>Undertow's parser and its Host check are strict, Netty's (under Vert.x) lenient. These rules are at
 * least as strict as Undertow's, so on Undertow they seldom fire, and on Vert.x they refuse what
 * Undertow's parser would; the 400s they give look exactly like the parsers' own. Beyond that they settle
 * what HTTP leaves to the server, the same way on both:
 * <ul>
 *   <li>Request content is refused, never read: no endpoint takes any, and a body nobody reads is where
 *       request smuggling lives (RFC 9110 9.3.1 allows refusing content on GET).</li>
 *   <li>Methods are case-sensitive; one this server does not know, or CONNECT, is 501.</li>
 *   <li>A path with an empty or dot segment or path parameters names no resource: 404, never
 *       normalised to another path.</li>
 * </ul>
 * Order matters only where a parser would refuse first: its 400s come before 414, 431, 501 and 413.
 *
 * <p>Use: {@link #head}, then {@link Head#header} for every header field as parsed, then {@link Head#verdict}.
 */
public final class RequestRules {

    private static final Set<String> KNOWN_METHODS =
            Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "TRACE", "PATCH");

    /** Bytes a request target may hold as they are (RFC 3986 pchar and query, plus '[' and ']' as Undertow allows). */
    private static final boolean[] TARGET_BYTES = new boolean[128];
    /** Header name bytes: RFC 9110 token characters. */
    private static final boolean[] TOKEN_BYTES = new boolean[128];
    /** Host name bytes: RFC 3986 reg-name without percent-encoding (which one of Vert.x's checks cannot take). */
    private static final boolean[] REG_NAME_BYTES = new boolean[128];

    static {
        for (char c = 0; c < 128; c++) {
            boolean alphaNum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            TARGET_BYTES[c] = alphaNum || "-._~!$&'()*+,;=:@/?%[]".indexOf(c) >= 0;
            TOKEN_BYTES[c] = alphaNum || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            REG_NAME_BYTES[c] = alphaNum || "-._~!$&'()*+,;=".indexOf(c) >= 0;
        }
    }

    /** The Host value last found valid: read and written by every IO thread unguarded, a cache either way. */
    private static String lastValidHost = "";

    private RequestRules() {}

    /** Starts checking one request head: method, request target and version exactly as the request line had them. */
    public static Head head(String method, String target, String version) {
        return new Head(method, target, version);
    }

    /** One request head being checked. */
    public static final class Head {
        private final String method;
        private final String target;
        private final String version;
        private int fields;
        private long fieldBytes;
        private boolean badField;
        private int hosts;
        private String host;
        private int contentLengths;
        private String contentLength;
        private int transferEncodings;
        private String transferEncoding;

        private Head(String method, String target, String version) {
            this.method = method;
            this.target = target;
            this.version = version;
        }

        /** One header field as the parser gave it (value without surrounding whitespace). */
        public Head header(String name, String value) {
            fields++;
            fieldBytes += RequestLimits.fieldBytes(name.length(), value.length());
            if (!isToken(name)) {
                badField = true;
            } else if (name.equals("Host") || name.equalsIgnoreCase("host")) { // as nearly every client spells it
                hosts++;
                host = value;
            } else if (name.equalsIgnoreCase("content-length")) {
                contentLengths++;
                contentLength = value;
            } else if (name.equalsIgnoreCase("transfer-encoding")) {
                transferEncodings++;
                transferEncoding = value;
            }
            return this;
        }

        /** The refusal or 404 for this head, or null when it may be routed. */
        public FixedResponse verdict() {
            if (!isHttp1(version) || !hasValidTargetBytes(target) || badField) {
                return FixedResponse.BAD_REQUEST;
            }
            Target parsed = Target.parse(method, target);
            if (parsed == null || !hostIsValid(parsed) || !framingIsValid()) {
                return FixedResponse.BAD_REQUEST;
            }
            FixedResponse tooLarge = RequestLimits.check(target.length(), fields, fieldBytes);
            if (tooLarge != null) {
                return tooLarge;
            }
            if (!method.equals("GET") && !KNOWN_METHODS.contains(method)) { // GET: nearly every request, no set probe
                return FixedResponse.NOT_IMPLEMENTED;
            }
            if (transferEncodings > 0) {
                return onlyChunked(transferEncoding) ? FixedResponse.CONTENT_TOO_LARGE : FixedResponse.NOT_IMPLEMENTED;
            }
            if (contentLengths > 0 && Long.parseLong(contentLength) > 0) {
                return FixedResponse.CONTENT_TOO_LARGE;
            }
            if (parsed.path() != null && !isCanonicalPath(parsed.path())) {
                return FixedResponse.NOT_FOUND;
            }
            return null;
        }

        /**
         * RFC 9112 3.2: exactly one Host on HTTP/1.1, at most one on 1.0, and a valid one; Undertow's check besides.
         */
        private boolean hostIsValid(Target parsed) {
            if (hosts > 1 || (hosts == 0 && !version.equals("HTTP/1.0"))) {
                return false;
            }
            if (host == null) {
                return true;
            }
            // Undertow refuses an absolute-form target its Host value does not appear in
            return isValidHost(host)
                    && (parsed.authority() == null || parsed.authority().contains(host));
        }

        /** RFC 9112 6: one Content-Length of digits, or one Transfer-Encoding ending in chunked on 1.1, never both. */
        private boolean framingIsValid() {
            if (contentLengths > 1 || transferEncodings > 1 || (contentLengths > 0 && transferEncodings > 0)) {
                return false;
            }
            if (contentLengths == 1 && !isDigits(contentLength, 18)) {
                return false;
            }
            return transferEncodings == 0 || (version.equals("HTTP/1.1") && endsInChunked(transferEncoding));
        }
    }

    /** A request target in one of the forms HTTP/1.1 allows; path is null for the authority and asterisk forms. */
    record Target(String authority, String path) {

        static Target parse(String method, String target) {
            if (target.startsWith("/")) {
                return new Target(null, pathOf(target));
            }
            if (target.equals("*")) {
                return method.equals("OPTIONS") ? new Target(null, null) : null;
            }
            int schemeEnd = target.indexOf("://");
            if (schemeEnd < 0) {
                return method.equals("CONNECT") && !target.contains("/") && !target.contains("@")
                        ? new Target(null, null)
                        : null;
            }
            String scheme = target.substring(0, schemeEnd).toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) {
                return null;
            }
            int authorityStart = schemeEnd + 3;
            int authorityEnd = authorityStart;
            while (authorityEnd < target.length() && "/?".indexOf(target.charAt(authorityEnd)) < 0) {
                authorityEnd++;
            }
            String authority = target.substring(authorityStart, authorityEnd);
            if (authority.isEmpty() || authority.contains("@")) { // RFC 9110 4.2.4: userinfo is an error
                return null;
            }
            String rest = target.substring(authorityEnd);
            return new Target(authority, rest.startsWith("/") ? pathOf(rest) : "/");
        }

        private static String pathOf(String originForm) {
            int query = originForm.indexOf('?');
            return query < 0 ? originForm : originForm.substring(0, query);
        }
    }

    static boolean isHttp1(String version) {
        return version.length() == 8 && version.startsWith("HTTP/1.") && Character.isDigit(version.charAt(7));
    }

    /** Only bytes a URI may hold, and every '%' followed by two hex digits. */
    static boolean hasValidTargetBytes(String target) {
        if (target.isEmpty()) {
            return false;
        }
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c >= 128 || !TARGET_BYTES[c]) {
                return false;
            }
            if (c == '%'
                    && (i + 2 >= target.length() || !isHex(target.charAt(i + 1)) || !isHex(target.charAt(i + 2)))) {
                return false;
            }
        }
        return true;
    }

    /** No empty segment ("//"), no "." or ".." segment (also percent-encoded), no path parameters (';'). */
    static boolean isCanonicalPath(String path) {
        if (path.equals("/")) {
            return true;
        }
        if (path.indexOf(';') >= 0) {
            return false;
        }
        int start = 1;
        while (start <= path.length()) {
            int end = path.indexOf('/', start);
            if (end < 0) {
                end = path.length();
            }
            String segment = path.substring(start, end).replace("%2e", ".").replace("%2E", ".");
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                return false;
            }
            start = end + 1;
        }
        return true;
    }

    /**
     * RFC 3986 host with an optional port 1-65535, as Undertow's Host check takes it, except that a
     * percent-encoded name is refused: no DNS name needs one, and it sends one of Vert.x's checks out of bounds.
     */
    static boolean isValidHost(String value) {
        String known = lastValidHost;
        if (value.equals(known)) { // a client sends the same Host on every request: one comparison, not a scan
            return true;
        }
        boolean valid = scanHost(value);
        if (valid) {
            lastValidHost = value;
        }
        return valid;
    }

    private static boolean scanHost(String value) {
        if (value.startsWith("[")) {
            int close = value.indexOf(']');
            boolean portFollows = close >= 0 && close + 1 < value.length();
            return close >= 2
                    && isIpv6(value.substring(1, close))
                    && (!portFollows || (value.charAt(close + 1) == ':' && isPort(value, close + 2)));
        }
        // one pass: name bytes up to a ':', then the port (a reg-name has no ':')
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == ':') {
                return isPort(value, i + 1);
            }
            if (c >= 128 || !REG_NAME_BYTES[c]) {
                return false;
            }
        }
        return true;
    }

    /** A port 1-65535 of at most 5 digits from {@code from} to the end (every request has one: no substrings). */
    private static boolean isPort(String value, int from) {
        if (!isDigits(value, from, 5)) {
            return false;
        }
        int port = Integer.parseInt(value, from, value.length(), 10);
        return port >= 1 && port <= 65535;
    }

    /** An IPv6 address in text form (RFC 4291 2.2), optionally ending in a dotted IPv4 address. */
    static boolean isIpv6(String address) {
        int lastColon = address.lastIndexOf(':');
        if (lastColon >= 0 && address.indexOf('.', lastColon) >= 0) {
            if (!isIpv4(address.substring(lastColon + 1))) {
                return false;
            }
            address = address.substring(0, lastColon + 1) + "0:0"; // the IPv4 address takes two groups
        }
        int doubleColon = address.indexOf("::");
        if (doubleColon < 0) {
            return groups(address) == 8;
        }
        if (address.indexOf("::", doubleColon + 1) >= 0) {
            return false;
        }
        int before = groups(address.substring(0, doubleColon));
        int after = groups(address.substring(doubleColon + 2));
        return before >= 0 && after >= 0 && before + after <= 7;
    }

    /** How many groups of 1-4 hex digits, separated by ':', the text holds; -1 if it is not such a list. */
    private static int groups(String text) {
        if (text.isEmpty()) {
            return 0;
        }
        String[] groups = text.split(":", -1);
        for (String group : groups) {
            if (group.isEmpty() || group.length() > 4 || !group.chars().allMatch(c -> isHex((char) c))) {
                return -1;
            }
        }
        return groups.length;
    }

    private static boolean isIpv4(String address) {
        String[] octets = address.split("\\.", -1);
        if (octets.length != 4) {
            return false;
        }
        for (String octet : octets) {
            if (!isDigits(octet, 3) || Integer.parseInt(octet) > 255) {
                return false;
            }
        }
        return true;
    }

    /** The last transfer coding is chunked, and chunked appears once (RFC 9112 6.3: else the length is unknown). */
    private static boolean endsInChunked(String transferEncoding) {
        String[] codings = codings(transferEncoding);
        int chunked = 0;
        for (String coding : codings) {
            if (coding.equals("chunked")) {
                chunked++;
            }
        }
        return chunked == 1 && codings[codings.length - 1].equals("chunked");
    }

    private static boolean onlyChunked(String transferEncoding) {
        return codings(transferEncoding).length == 1;
    }

    private static String[] codings(String transferEncoding) {
        String[] codings = transferEncoding.split(",", -1);
        for (int i = 0; i < codings.length; i++) {
            codings[i] = codings[i].strip().toLowerCase(Locale.ROOT);
        }
        return codings;
    }

    private static boolean isToken(String name) {
        return !name.isEmpty() && allIn(TOKEN_BYTES, name, name.length());
    }

    /** Every character of {@code value} before {@code end} is ASCII and marked in {@code table}. */
    private static boolean allIn(boolean[] table, String value, int end) {
        for (int i = 0; i < end; i++) {
            char c = value.charAt(i);
            if (c >= 128 || !table[c]) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigits(String value, int maxLength) {
        return isDigits(value, 0, maxLength);
    }

    /** One to {@code maxLength} ASCII digits from {@code from} to the end of {@code value}. */
    private static boolean isDigits(String value, int from, int maxLength) {
        int length = value.length() - from;
        if (length < 1 || length > maxLength) {
            return false;
        }
        for (int i = from; i < value.length(); i++) {
            if (value.charAt(i) < '0' || value.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
