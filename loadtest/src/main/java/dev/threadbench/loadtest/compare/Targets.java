package dev.threadbench.loadtest.compare;

import dev.threadbench.loadtest.UsageException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Map;

/** compare --targets: the servers already running, by name, at their base URLs. */
final class Targets {

    private Targets() {}

    /** {@code undertow=http://undertow:8080,vertx=http://vertx:8081}, in the order given. */
    static Map<String, URI> parse(String list) {
        Map<String, URI> targets = new LinkedHashMap<>();
        for (String entry : list.split(",", -1)) {
            int equals = entry.indexOf('=');
            if (equals < 0) {
                throw new UsageException("--targets: expected NAME=URL[,NAME=URL...], got '" + entry.trim() + "'");
            }
            String name = entry.substring(0, equals).trim();
            if (!CompareOptions.SERVERS.contains(name)) {
                throw new UsageException("--targets: unknown server '" + name + "' (expected "
                        + String.join(", ", CompareOptions.SERVERS) + ")");
            }
            if (targets.containsKey(name)) {
                throw new UsageException("--targets: " + name + " is given twice");
            }
            targets.put(name, baseUrl(name, entry.substring(equals + 1).trim()));
        }
        return targets;
    }

    /** http://HOST[:PORT][/] as http://HOST:PORT. */
    private static URI baseUrl(String name, String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new UsageException("--targets: " + name + ": not a URL: " + url);
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null || !(path.isEmpty() || path.equals("/"))
                || uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
            throw new UsageException("--targets: " + name + ": must be an http:// base URL (host and port, no path), got " + url);
        }
        return URI.create("http://" + uri.getHost() + ":" + (uri.getPort() < 0 ? 80 : uri.getPort()));
    }
}
