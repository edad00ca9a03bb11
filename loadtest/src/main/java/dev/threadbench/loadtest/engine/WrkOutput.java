package dev.threadbench.loadtest.engine;

import dev.threadbench.loadtest.runner.LatencySummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * wrk's summary (with {@code --latency}), parsed: requests, duration, requests/s, latency average / max
 * and its 50/75/90/99% distribution, socket errors, non-2xx answers, plus the percentile lines printed by
 * {@link WrkEngine#SCRIPT} when wrk ran with it. Latencies in milliseconds.
 */
public record WrkOutput(long requests, double durationSeconds, double requestsPerSecond, double latencyMeanMs,
                        double latencyMaxMs, Double p50Ms, Double p75Ms, Double p90Ms, Double p99Ms, Double p999Ms,
                        long connectErrors, long readErrors, long writeErrors, long timeouts, long non2xx,
                        List<LatencySummary.Point> percentiles) {

    private static final Pattern REQUESTS = Pattern.compile("(\\d+) requests in ([\\d.]+)(us|ms|s|m|h)\\b");
    private static final Pattern RATE = Pattern.compile("Requests/sec:\\s+([\\d.]+)");
    private static final Pattern LATENCY = Pattern.compile("^\\s*Latency\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)", Pattern.MULTILINE);
    private static final Pattern DISTRIBUTION = Pattern.compile("^\\s*(50|75|90|99)%\\s+(\\S+)\\s*$", Pattern.MULTILINE);
    private static final Pattern SOCKET_ERRORS = Pattern.compile(
            "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");
    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");
    private static final Pattern SCRIPT_PERCENTILE = Pattern.compile("^loadtest-percentile (\\S+) (\\d+)\\s*$", Pattern.MULTILINE);

    public static WrkOutput parse(String text) {
        Matcher requests = REQUESTS.matcher(text);
        Matcher rate = RATE.matcher(text);
        Matcher latency = LATENCY.matcher(text);
        if (!requests.find() || !rate.find() || !latency.find()) {
            throw new IllegalStateException("not wrk output (no 'requests in', 'Requests/sec' or 'Latency' line): "
                    + text.strip().lines().findFirst().orElse("(empty)"));
        }
        Double[] distribution = new Double[4];
        Matcher d = DISTRIBUTION.matcher(text);
        while (d.find()) {
            int slot = switch (d.group(1)) {
                case "50" -> 0;
                case "75" -> 1;
                case "90" -> 2;
                default -> 3;
            };
            distribution[slot] = millis(d.group(2));
        }
        long connect = 0, read = 0, write = 0, timeout = 0;
        Matcher errors = SOCKET_ERRORS.matcher(text);
        if (errors.find()) {
            connect = Long.parseLong(errors.group(1));
            read = Long.parseLong(errors.group(2));
            write = Long.parseLong(errors.group(3));
            timeout = Long.parseLong(errors.group(4));
        }
        Matcher non2xx = NON_2XX.matcher(text);
        long non2xxCount = non2xx.find() ? Long.parseLong(non2xx.group(1)) : 0;
        List<LatencySummary.Point> curve = new ArrayList<>();
        Double p999 = null;
        Matcher p = SCRIPT_PERCENTILE.matcher(text);
        while (p.find()) {
            double percentile = Double.parseDouble(p.group(1));
            double ms = Long.parseLong(p.group(2)) / 1000.0;
            curve.add(new LatencySummary.Point(percentile, ms));
            if (percentile == 99.9) {
                p999 = ms;
            }
        }
        return new WrkOutput(Long.parseLong(requests.group(1)), seconds(requests.group(2), requests.group(3)),
                Double.parseDouble(rate.group(1)), millis(latency.group(1)), millis(latency.group(3)),
                distribution[0], distribution[1], distribution[2], distribution[3], p999,
                connect, read, write, timeout, non2xxCount, curve);
    }

    /** wrk's time format: 850.00us, 1.23ms, 2.00s, 1.50m, 1.00h. */
    static double millis(String value) {
        Matcher m = Pattern.compile("([\\d.]+)(us|ms|s|m|h)").matcher(value.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalStateException("not a wrk time: " + value);
        }
        return seconds(m.group(1), m.group(2)) * 1000.0;
    }

    private static double seconds(String number, String unit) {
        double n = Double.parseDouble(number);
        return switch (unit) {
            case "us" -> n / 1_000_000.0;
            case "ms" -> n / 1000.0;
            case "s" -> n;
            case "m" -> n * 60;
            case "h" -> n * 3600;
            default -> throw new IllegalStateException("unknown wrk time unit " + unit);
        };
    }
}
