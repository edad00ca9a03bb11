package dev.threadbench.loadtest.plan;

import dev.threadbench.loadtest.UsageException;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * Reads drill plan files ({@code drill --benchmark FILE}). Accepts the subset this project's plans use:
 * {@code base}, {@code concurrency}, {@code iterations}, {@code rampup} and {@code plan} steps with a
 * {@code name} and a {@code request} ({@code url}, optional {@code method} GET/HEAD and {@code headers}).
 * Everything else, drill feature or typo, is refused with one line naming the key and the file.
 */
public final class PlanParser {

    private static final Set<String> TOP_LEVEL = Set.of("base", "concurrency", "iterations", "rampup", "plan");
    private static final List<String> TOP_LEVEL_ORDER = List.of("base", "concurrency", "iterations", "rampup", "plan");
    private static final Set<String> STEP_KEYS = Set.of("name", "request");
    private static final Set<String> REQUEST_KEYS = Set.of("url", "method", "headers");
    /** drill features a step may carry that this runner does not implement. */
    private static final Set<String> DRILL_STEP_FEATURES = Set.of("assign", "assert", "delay", "exec", "include",
            "with_items", "with_items_range", "with_items_from_csv", "with_items_from_file", "shuffle", "pick", "tags");
    private static final Set<String> METHODS = Set.of("GET", "HEAD");

    private PlanParser() {}

    public static Plan parse(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UsageException(file + ": cannot read the plan (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
        }
        return parse(text, file.toString());
    }

    /** @param source the name errors are reported under (the file name) */
    public static Plan parse(String yaml, String source) {
        Object document;
        try {
            document = new Load(LoadSettings.builder().setLabel(source).build()).loadFromString(yaml);
        } catch (MarkedYamlEngineException e) {
            String where = e.getProblemMark().map(m -> "line " + (m.getLine() + 1) + ", column " + (m.getColumn() + 1) + ": ").orElse("");
            throw fail(source, "not valid YAML: " + where + e.getProblem());
        } catch (YamlEngineException e) {
            throw fail(source, "not valid YAML: " + firstLine(e.getMessage()));
        }
        if (!(document instanceof Map<?, ?> top)) {
            throw fail(source, "a plan is a YAML mapping with keys " + String.join(", ", TOP_LEVEL_ORDER));
        }
        for (Object key : top.keySet()) {
            if (!TOP_LEVEL.contains(String.valueOf(key))) {
                throw fail(source, "unknown key '" + key + "' (a plan has " + String.join(", ", TOP_LEVEL_ORDER) + ")");
            }
        }
        for (String required : List.of("base", "concurrency", "iterations", "plan")) {
            if (top.get(required) == null) {
                throw fail(source, "missing required key '" + required + "'");
            }
        }
        URI base = baseUrl(source, top.get("base"));
        long concurrency = wholeNumber(source, "concurrency", top.get("concurrency"), 1, Integer.MAX_VALUE);
        long iterations = wholeNumber(source, "iterations", top.get("iterations"), 1, Long.MAX_VALUE);
        long rampup = top.get("rampup") == null ? 0 : wholeNumber(source, "rampup", top.get("rampup"), 0, 3600);
        if (!(top.get("plan") instanceof List<?> items) || items.isEmpty()) {
            throw fail(source, "'plan' must be a non-empty list of steps");
        }
        List<Plan.Step> steps = new java.util.ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            steps.add(step(source, i + 1, items.get(i), base));
        }
        Plan plan = new Plan(base, (int) concurrency, iterations, (int) rampup, steps);
        checkBounds(plan, source);
        return plan;
    }

    static void checkBounds(Plan plan, String source) {
        if (plan.concurrency() < 1) {
            throw fail(source, "concurrency must be at least 1, got " + plan.concurrency());
        }
        if (plan.iterations() < 1) {
            throw fail(source, "iterations must be at least 1, got " + plan.iterations());
        }
        if (plan.concurrency() > plan.iterations()) {
            throw fail(source, "concurrency (" + plan.concurrency() + ") can not be higher than iterations ("
                    + plan.iterations() + ")");
        }
        if (plan.rampupSeconds() < 0) {
            throw fail(source, "rampup must be >= 0 seconds, got " + plan.rampupSeconds());
        }
    }

    private static Plan.Step step(String source, int index, Object item, URI base) {
        String where = "plan step " + index;
        if (!(item instanceof Map<?, ?> step)) {
            throw fail(source, where + ": a step is a mapping with 'name' and 'request'");
        }
        if (step.get("name") instanceof String named && !named.isBlank()) {
            where += " '" + named + "'";
        }
        for (Object key : step.keySet()) {
            String k = String.valueOf(key);
            if (DRILL_STEP_FEATURES.contains(k)) {
                throw fail(source, where + ": drill's '" + k + "' is not supported by this runner (a step has name and request)");
            }
            if (!STEP_KEYS.contains(k)) {
                throw fail(source, where + ": unknown key '" + k + "' (a step has name and request)");
            }
        }
        if (!(step.get("name") instanceof String name) || name.isBlank()) {
            throw fail(source, where + ": missing required key 'name'");
        }
        if (!(step.get("request") instanceof Map<?, ?> request)) {
            throw fail(source, where + ": missing required key 'request' (a mapping with 'url')");
        }
        for (Object key : request.keySet()) {
            if (!REQUEST_KEYS.contains(String.valueOf(key))) {
                throw fail(source, where + ": request key '" + key + "' is not supported (a request has url, method, headers)");
            }
        }
        if (!(request.get("url") instanceof String url) || url.isBlank()) {
            throw fail(source, where + ": missing required key 'request.url'");
        }
        if (url.contains("{{")) {
            throw fail(source, where + ": interpolations ({{ ... }}) are not supported: " + url);
        }
        String method = request.get("method") == null ? "GET" : String.valueOf(request.get("method")).toUpperCase(Locale.ROOT);
        if (!METHODS.contains(method)) {
            throw fail(source, where + ": method '" + request.get("method") + "' is not supported (GET or HEAD; the runner sends no body)");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        if (request.get("headers") != null) {
            if (!(request.get("headers") instanceof Map<?, ?> given)) {
                throw fail(source, where + ": 'headers' must be a mapping of header names to values");
            }
            given.forEach((k, v) -> headers.put(String.valueOf(k), String.valueOf(v)));
        }
        return new Plan.Step(name, method, resolve(source, where, base, url), Map.copyOf(headers));
    }

    private static URI baseUrl(String source, Object value) {
        if (!(value instanceof String text) || text.isBlank()) {
            throw fail(source, "'base' must be a URL such as http://localhost:8080, got " + describe(value));
        }
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (URISyntaxException e) {
            throw fail(source, "'base' is not a URL: " + text);
        }
        checkHttp(source, "'base'", uri, text);
        return uri;
    }

    /** drill joins base and url by concatenation when the url does not start with "http". */
    private static URI resolve(String source, String where, URI base, String url) {
        String joined;
        if (url.startsWith("http")) {
            joined = url;
        } else {
            String b = base.toString();
            joined = b.endsWith("/") && url.startsWith("/") ? b + url.substring(1) : b + url;
        }
        URI uri;
        try {
            uri = new URI(joined);
        } catch (URISyntaxException e) {
            throw fail(source, where + ": not a URL: " + joined);
        }
        checkHttp(source, where + ": url", uri, joined);
        return uri;
    }

    static URI rebase(URI url, URI oldBase, URI newBase) {
        if (!url.getScheme().equals(oldBase.getScheme()) || !url.getRawAuthority().equals(oldBase.getRawAuthority())) {
            return url;
        }
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        String query = url.getRawQuery() == null ? "" : "?" + url.getRawQuery();
        String prefix = newBase.toString().endsWith("/") ? newBase.toString().substring(0, newBase.toString().length() - 1) : newBase.toString();
        return URI.create(prefix + path + query);
    }

    private static void checkHttp(String source, String what, URI uri, String text) {
        if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
            throw fail(source, what + " must be an http:// URL with a host, got " + text);
        }
    }

    private static long wholeNumber(String source, String key, Object value, long min, long max) {
        long number;
        if (value instanceof Integer || value instanceof Long) {
            number = ((Number) value).longValue();
        } else if (value instanceof BigInteger) {
            throw fail(source, "'" + key + "' is too large: " + value);
        } else if (value instanceof String text && text.trim().matches("-?\\d{1,18}")) {
            number = Long.parseLong(text.trim());
        } else {
            throw fail(source, "'" + key + "' must be a whole number, got " + describe(value));
        }
        if (number < min || number > max) {
            throw fail(source, "'" + key + "' must be " + (max == Long.MAX_VALUE || max == Integer.MAX_VALUE
                    ? "at least " + min : "between " + min + " and " + max) + ", got " + number);
        }
        return number;
    }

    private static String describe(Object value) {
        if (value instanceof String s) {
            return "'" + s + "'";
        }
        if (value instanceof Map<?, ?>) {
            return "a mapping";
        }
        if (value instanceof List<?>) {
            return "a list";
        }
        return String.valueOf(value);
    }

    private static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("").trim();
    }

    private static UsageException fail(String source, String message) {
        return new UsageException(source + ": " + message);
    }
}
