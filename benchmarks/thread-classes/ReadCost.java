import dev.threadbench.common.ThreadClasses;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * The cost of one ThreadClasses.read() (the bill by thread class, /stats?threads) with N parked platform threads named
 * as Undertow's workers: the reading thread's CPU and the wall time, the mean of 20 reads after 10. Run from the
 * project's root once common is built: java -cp common/target/classes benchmarks/thread-classes/ReadCost.java 10000
 */
public class ReadCost {
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
        ThreadClasses classes = ThreadClasses.ofThisProcess(ThreadClasses.UNDERTOW);
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 10; i++) classes.read();
        int reads = 20;
        long cpu0 = bean.getCurrentThreadCpuTime(), wall0 = System.nanoTime();
        for (int i = 0; i < reads; i++) classes.read();
        long cpu = bean.getCurrentThreadCpuTime() - cpu0, wall = System.nanoTime() - wall0;
        System.out.printf(
                "threads %d (live %d): one read %.1f ms CPU, %.1f ms wall (mean of %d); worker threads counted %d%n",
                n,
                Thread.activeCount(),
                cpu / 1e6 / reads,
                wall / 1e6 / reads,
                reads,
                classes.read().get("worker").threads());
    }
}
