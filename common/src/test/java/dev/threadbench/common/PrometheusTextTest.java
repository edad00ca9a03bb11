package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    private static final ProcessCost.Figures FIGURES = new ProcessCost.Figures(
            2_500_000_000L,
            2000L,
            500L,
            12,
            14,
            30_000_000L,
            512_000_000L,
            4_000_000L,
            3,
            48,
            2294L,
            100_000_000L,
            110_000_000L,
            3046L,
            1835L);

    @Test
    void figuresAreInBaseUnitsWithTheClassesAsALabel() {
        Map<String, ThreadClasses.Cost> bill = new LinkedHashMap<>();
        bill.put("io", new ThreadClasses.Cost(266.756, 200, 60, 2345.947, 10L, 5L, 3));
        bill.put("exited", new ThreadClasses.Cost(6.078, 0, 0, null, 1L, 1L, 0));

        String text = PrometheusText.render("vertx", "timer", 11, 1, 0, FIGURES, bill);

        List<String> samples =
                text.lines().filter(line -> !line.startsWith("#")).toList();
        assertTrue(samples.contains("threadbench_info{server=\"vertx\",strategy=\"timer\"} 1"), text);
        assertTrue(samples.contains("threadbench_requests_total 11"), text);
        assertTrue(samples.contains("threadbench_delayed_requests_total 1"), text);
        assertTrue(samples.contains("process_cpu_seconds_total 2.500000"), text);
        assertTrue(samples.contains("threadbench_thread_cpu_seconds_total{class=\"io\"} 0.266756"), text);
        assertTrue(samples.contains("threadbench_thread_run_queue_wait_seconds_total{class=\"io\"} 2.345947"), text);
        assertFalse(text.contains("threadbench_thread_run_queue_wait_seconds_total{class=\"exited\"}"), "unknown");
        assertTrue(samples.contains("threadbench_gc_pause_seconds_total 0.048000"), text);
        assertTrue(samples.contains("threadbench_jit_compilation_seconds_total 2.294000"), text);
        assertTrue(samples.contains("process_resident_memory_bytes 100000000"), text);
        assertTrue(samples.contains("threadbench_context_switches_total{kind=\"involuntary\"} 1835"), text);
    }

    @Test
    void everyFamilyHasHelpAndTypeAndACounterEndsInTotal() {
        String text = PrometheusText.render("undertow", "blocking", 0, 0, 0, FIGURES, null);
        List<String> lines = text.lines().toList();
        for (String sample :
                lines.stream().filter(line -> !line.startsWith("#")).toList()) {
            String name = sample.split("[{ ]", 2)[0];
            String type = lines.stream()
                    .filter(line -> line.startsWith("# TYPE " + name + " "))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no TYPE for " + name))
                    .substring(("# TYPE " + name + " ").length());
            assertTrue(lines.stream().anyMatch(line -> line.startsWith("# HELP " + name + " ")), name);
            assertEquals(type.equals("counter"), name.endsWith("_total"), name + " is a " + type);
        }
        assertFalse(text.contains("class="), "no bill read, no class lines");
    }

    @Test
    void aFigureThatCannotBeReadIsLeftOutNotZero() {
        ProcessCost.Figures offLinux = new ProcessCost.Figures(
                1_000_000_000L,
                null,
                null,
                12,
                14,
                30_000_000L,
                512_000_000L,
                4_000_000L,
                0,
                0,
                null,
                null,
                null,
                null,
                null);
        String text = PrometheusText.render("vertx", "timer", 0, 0, 0, offLinux, null);
        assertFalse(text.contains("process_resident_memory_bytes"), text);
        assertFalse(text.contains("threadbench_context_switches_total"), text);
        assertFalse(text.contains("threadbench_jit_compilation_seconds_total"), text);
    }
}
