import dev.threadbench.common.ProcessCost;
import dev.threadbench.common.RequestCounter;
import dev.threadbench.common.ServerStats;
import dev.threadbench.common.Strategy;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * The cost of one GET /metrics body (ServerStats.toPrometheus(): the process figures and the bill by thread class)
 * with N parked platform threads named as Undertow's workers: the rendering thread's CPU and the wall time, the mean
 * of 20 scrapes after 10. Run from the project's root once common is built:
 * java -cp common/target/classes benchmarks/metrics/ScrapeCost.java 10000
 */
public class ScrapeCost {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        CountDownLatch started = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            Thread.ofPlatform().name("undertow-worker-" + i).daemon().start(() -> {
                started.countDown();
                LockSupport.park();
            });
        }
        started.await();
        ServerStats stats = new ServerStats("undertow", Strategy.BLOCKING, new RequestCounter(10));
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        int length = 0;
        for (int i = 0; i < 10; i++) length = stats.toPrometheus().length();
        int scrapes = 20;
        long cpu0 = bean.getCurrentThreadCpuTime(), wall0 = System.nanoTime();
        for (int i = 0; i < scrapes; i++) stats.toPrometheus();
        long cpu = bean.getCurrentThreadCpuTime() - cpu0, wall = System.nanoTime() - wall0;
        long figures0 = bean.getCurrentThreadCpuTime();
        for (int i = 0; i < scrapes; i++) ProcessCost.ofThisProcess().figures();
        long figures = bean.getCurrentThreadCpuTime() - figures0;
        System.out.printf(
                "threads %d (live %d): one scrape %.1f ms CPU, %.1f ms wall (mean of %d), %d bytes;"
                        + " of which the process figures alone %.3f ms CPU%n",
                n,
                Thread.activeCount(),
                cpu / 1e6 / scrapes,
                wall / 1e6 / scrapes,
                scrapes,
                length,
                figures / 1e6 / scrapes);
    }
}
