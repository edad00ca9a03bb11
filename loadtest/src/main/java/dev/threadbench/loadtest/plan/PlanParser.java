package dev.threadbench.loadtest.plan;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.threadbench.loadtest.base.UsageException;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * The YAML is bound into records with unknown keys refused: everything else, drill feature or typo, is
 * one line naming the key and the file.
 */
public final class PlanParser {

    /** A plan as written, before its values are checked. */
    private record PlanFile(String base, Long concurrency, Long iterations, Long rampup, List<StepFile> plan) {}

    private record StepFile(String name, RequestFile request) {}

    private record RequestFile(String url, String method, Map<String, String> headers) {}

    private static final String PLAN_KEYS = "base, concurrency, iterations, rampup, plan";
    /** drill features a step may carry that this runner does not implement. */
    private static final Set<String> DRILL_STEP_FEATURES = Set.of(
            "assign",
            "assert",
            "delay",
            "exec",
            "include",
            "with_items",
            "with_items_range",
            "with_items_from_csv",
            "with_items_from_file",
            "shuffle",
            "pick",
            "tags");

    private static final Set<String> METHODS = Set.of("GET", "HEAD");
    /** What a key's value must be, for the one line when it is not. */
    private static final Map<String, String> EXPECTED = Map.of(
            "base",
            "a URL such as http://localhost:8080",
            "concurrency",
            "a whole number",
            "iterations",
            "a whole number",
            "rampup",
            "a whole number",
            "plan",
            "a non-empty list of steps",
            "request",
            "a mapping with 'url'",
            "headers",
            "a mapping of header names to values");

    private static final ObjectMapper BINDER = JsonMapper.builder()
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .build();

    private PlanParser() {}

    public static Plan parse(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UsageException(
                    file + ": cannot read the plan (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
        }
        return parse(text, file.toString());
    }

    /** @param source the name errors are reported under (the file name) */
    public static Plan parse(String yaml, String source) {
        Object document;
        try {
            document = new Load(LoadSettings.builder().setLabel(source).build()).loadFromString(yaml);
        } catch (MarkedYamlEngineException e) {
            String where = e.getProblemMark()
                    .map(m -> "line " + (m.getLine() + 1) + ", column " + (m.getColumn() + 1) + ": ")
                    .orElse("");
            throw fail(source, "not valid YAML: " + where + e.getProblem());
        } catch (YamlEngineException e) {
            throw fail(
                    source,
                    "not valid YAML: "
                            + e.getMessage().lines().findFirst().orElse("").trim());
        }
        if (!(document instanceof Map<?, ?> top)) {
            throw fail(source, "a plan is a YAML mapping with keys " + PLAN_KEYS);
        }
        PlanFile file;
        try {
            file = BINDER.convertValue(top, PlanFile.class);
        } catch (IllegalArgumentException e) {
            throw fail(
                    source,
                    e.getCause() instanceof JsonMappingException mapping
                            ? refusal(mapping, top)
                            : "not a plan: "
                                    + e.getMessage().lines().findFirst().orElse(""));
        }
        for (String required : List.of("base", "concurrency", "iterations", "plan")) {
            if (top.get(required) == null) {
                throw fail(source, "missing required key '" + required + "'");
            }
        }
        URI base = url(source, "'base'", file.base());
        int concurrency = (int) within(source, "concurrency", file.concurrency(), 1, Integer.MAX_VALUE);
        long iterations = within(source, "iterations", file.iterations(), 1, Long.MAX_VALUE);
        int rampup = file.rampup() == null ? 0 : (int) within(source, "rampup", file.rampup(), 0, 3600);
        if (file.plan().isEmpty()) {
            throw fail(source, "'plan' must be a non-empty list of steps");
        }
        List<Plan.Step> steps = new ArrayList<>();
        for (int i = 0; i < file.plan().size(); i++) {
            steps.add(step(source, stepName(i, top), file.plan().get(i), base));
        }
        Plan plan = new Plan(base, concurrency, iterations, rampup, steps);
        checkBounds(plan, source);
        return plan;
    }

    /** What binding refused, named by its key and, within a step, by the step. */
    private static String refusal(JsonMappingException e, Map<?, ?> top) {
        Object at = top;
        List<String> keys = new ArrayList<>();
        for (JsonMappingException.Reference reference : e.getPath()) {
            keys.add(
                    reference.getFieldName() != null ? reference.getFieldName() : String.valueOf(reference.getIndex()));
            at = at instanceof Map<?, ?> map
                    ? map.get(keys.getLast())
                    : at instanceof List<?> list ? list.get(reference.getIndex()) : null;
        }
        String where = keys.size() > 1 ? stepName(Integer.parseInt(keys.get(1)), top) + ": " : "";
        if (e instanceof UnrecognizedPropertyException unknown) {
            String key = unknown.getPropertyName();
            return where
                    + switch (keys.size()) {
                        case 1 -> "unknown key '" + key + "' (a plan has " + PLAN_KEYS + ")";
                        case 3 ->
                            (DRILL_STEP_FEATURES.contains(key)
                                            ? "drill's '" + key + "' is not supported by this runner"
                                            : "unknown key '" + key + "'")
                                    + " (a step has name and request)";
                        default -> "request key '" + key + "' is not supported (a request has url, method, headers)";
                    };
        }
        if (keys.size() == 2) {
            return where + "a step is a mapping with 'name' and 'request', got " + describe(at);
        }
        String key = keys.size() > 4 ? "headers" : keys.getLast();
        return where + "'" + key
                + (at instanceof BigInteger
                        ? "' is too large: " + at
                        : "' must be " + EXPECTED.getOrDefault(key, "text") + ", got " + describe(at));
    }

    /** "plan step 2 'Fetch'", or without its name when it has none. */
    private static String stepName(int index, Map<?, ?> top) {
        String where = "plan step " + (index + 1);
        if (top.get("plan") instanceof List<?> steps
                && steps.get(index) instanceof Map<?, ?> step
                && step.get("name") instanceof String name
                && !name.isBlank()) {
            where += " '" + name + "'";
        }
        return where;
    }

    private static Plan.Step step(String source, String where, StepFile step, URI base) {
        RequestFile request = step == null ? null : step.request();
        String missing = step == null || step.name() == null || step.name().isBlank()
                ? "name"
                : request == null
                        ? "request"
                        : request.url() == null || request.url().isBlank() ? "request.url" : null;
        if (missing != null) {
            throw fail(source, where + ": missing required key '" + missing + "'");
        }
        if (request.url().contains("{{")) {
            throw fail(source, where + ": interpolations ({{ ... }}) are not supported: " + request.url());
        }
        String method = request.method() == null ? "GET" : request.method().toUpperCase(Locale.ROOT);
        if (!METHODS.contains(method)) {
            throw fail(
                    source,
                    where + ": method '" + request.method()
                            + "' is not supported (GET or HEAD; the runner sends no body)");
        }
        return new Plan.Step(
                step.name(),
                method,
                resolve(source, where, base, request.url()),
                request.headers() == null ? Map.of() : Map.copyOf(request.headers()));
    }

    static void checkBounds(Plan plan, String source) {
        if (plan.concurrency() < 1) {
            throw fail(source, "concurrency must be at least 1, got " + plan.concurrency());
        }
        if (plan.iterations() < 1) {
            throw fail(source, "iterations must be at least 1, got " + plan.iterations());
        }
        if (plan.concurrency() > plan.iterations()) {
            throw fail(
                    source,
                    "concurrency (" + plan.concurrency() + ") can not be higher than iterations (" + plan.iterations()
                            + ")");
        }
        if (plan.rampupSeconds() < 0) {
            throw fail(source, "rampup must be >= 0 seconds, got " + plan.rampupSeconds());
        }
    }

    /** drill joins base and url by concatenation when the url does not start with "http". */
    private static URI resolve(String source, String where, URI base, String url) {
        if (url.startsWith("http")) {
            return url(source, where + ": url", url);
        }
        String b = base.toString();
        return url(source, where + ": url", b.endsWith("/") && url.startsWith("/") ? b + url.substring(1) : b + url);
    }

    private static URI url(String source, String what, String text) {
        if (text.isBlank()) {
            throw fail(source, what + " must be a URL such as http://localhost:8080, got ''");
        }
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (URISyntaxException e) {
            throw fail(source, what + " is not a URL: " + text);
        }
        if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
            throw fail(source, what + " must be an http:// URL with a host, got " + text);
        }
        return uri;
    }

    static URI rebase(URI url, URI oldBase, URI newBase) {
        if (!url.getScheme().equals(oldBase.getScheme())
                || !url.getRawAuthority().equals(oldBase.getRawAuthority())) {
            return url;
        }
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        String query = url.getRawQuery() == null ? "" : "?" + url.getRawQuery();
        String prefix = newBase.toString().endsWith("/")
                ? newBase.toString().substring(0, newBase.toString().length() - 1)
                : newBase.toString();
        return URI.create(prefix + path + query);
    }

    private static long within(String source, String key, long number, long min, long max) {
        if (number < min || number > max) {
            throw fail(
                    source,
                    "'" + key + "' must be "
                            + (max == Long.MAX_VALUE || max == Integer.MAX_VALUE
                                    ? "at least " + min
                                    : "between " + min + " and " + max)
                            + ", got " + number);
        }
        return number;
    }

    private static String describe(Object value) {
        return switch (value) {
            case String s -> "'" + s + "'";
            case Map<?, ?> m -> "a mapping";
            case List<?> l -> "a list";
            case null, default -> String.valueOf(value);
        };
    }

    private static UsageException fail(String source, String message) {
        return new UsageException(source + ": " + message);
    }
}
