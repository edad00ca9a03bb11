package dev.threadbench.loadtest.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.model.Profile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The buckets on collapsed stacks captured from the six servers at 2000 connections (compare --profile cpu, itimer,
 * 2026-12-01; one or two stacks kept per kind of frame, so that the file stays small).
 */
class BucketSharesTest {

    private static final String FIXTURE = "/dev/threadbench/loadtest/profile/servers-2000.collapsed";

    @Test
    void everySampleCountsOnceAndEveryBucketIsListedOtherIncluded() throws IOException {
        String collapsed = fixture();
        long samples = collapsed
                .lines()
                .mapToLong(line -> Long.parseLong(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
        Map<Bucket, Long> weights = BucketShares.weights(collapsed);
        assertEquals(
                samples, weights.values().stream().mapToLong(Long::longValue).sum());
        List<Profile.Share> shares = BucketShares.shares(weights);
        assertEquals(
                Arrays.stream(Bucket.values()).map(b -> b.name().toLowerCase()).toList(),
                shares.stream().map(Profile.Share::bucket).toList());
        assertEquals(1.0, shares.stream().mapToDouble(Profile.Share::share).sum(), 0.01);
        for (Bucket bucket : List.of(Bucket.IO, Bucket.PAGE, Bucket.STRATEGY, Bucket.GC, Bucket.JIT)) {
            assertTrue(weights.get(bucket) > 0, bucket + " found in the captured stacks: " + weights);
        }
    }

    @Test
    void compilerAndCollectorThreadsCountWhole() throws IOException {
        assertEquals(Bucket.JIT, bucketOfFirst("CompileBroker::compiler_thread_loop"));
        assertEquals(Bucket.GC, bucketOfFirst("WorkerThread::run"));
    }

    @Test
    void theDeepestNamedFrameDecides() throws IOException {
        // Vert.x's event loop reading and decoding a request: the decoder, under the loop
        assertEquals(Bucket.IO, bucketOfFirstEndingIn("io/netty/handler/codec/http/HttpObjectDecoder"));
        // a thread parked (a worker waiting for work, a virtual thread's carrier), whatever ran it
        assertEquals(Bucket.STRATEGY, bucketOfFirst("jdk/internal/misc/Unsafe.park"));
        // the blocking strategy's worker pool, the project's own, starting or handing over a thread
        assertEquals(Bucket.STRATEGY, bucketOfFirst("dev/threadbench/common/OnDemandThreadPool"));
    }

    @Test
    void framesAreJavaByTheirSuffixAndNativeWithout() {
        assertEquals(
                Bucket.NATIVE,
                Bucket.of(List.of("thread_native_entry", "VMThread::run", "VMThread::evaluate_operation")));
        assertEquals(Bucket.OTHER, Bucket.of(List.of("java/lang/Thread.run_[j]", "java/util/HashMap.get_[i]")));
        assertEquals(
                Bucket.PAGE,
                Bucket.of(List.of(
                        "io/netty/channel/nio/NioEventLoop.run_[j]",
                        "dev/threadbench/vertx/Routes.root_[j]",
                        "java/lang/String.equals_[i]",
                        "jlong_disjoint_arraycopy")));
        assertEquals("io/undertow/X.y", Bucket.name("io/undertow/X.y_[1]"));
        assertEquals("epoll_wait", Bucket.name("epoll_wait"));
    }

    @Test
    void aBadModeIsOneLine() {
        UsageException e = assertThrows(UsageException.class, () -> ProfileMode.parse("heap"));
        assertEquals("--profile: unknown mode 'heap' (expected cpu, wall, alloc)", e.getMessage());
        assertEquals(ProfileMode.WALL, ProfileMode.parse("Wall"));
    }

    @Test
    void theLibraryForEachPlatformAsyncProfilerShips() {
        assertEquals("/linux-x64/libasyncProfiler.so", AgentLibrary.resource("Linux", "amd64"));
        assertEquals("/linux-arm64/libasyncProfiler.so", AgentLibrary.resource("Linux", "aarch64"));
        assertEquals(null, AgentLibrary.resource("Windows 11", "amd64"));
        assertEquals(
                null,
                AgentLibrary.resource("Mac OS X", "aarch64"),
                "its macOS library is loaded differently: not offered");
    }

    private static Bucket bucketOfFirst(String fragment) throws IOException {
        String line = fixture()
                .lines()
                .filter(l -> l.contains(fragment))
                .findFirst()
                .orElseThrow(() -> new AssertionError(fragment + " in the fixture"));
        return bucketOf(line);
    }

    /** The first stack whose leaf-most Java frame is in {@code prefix}. */
    private static Bucket bucketOfFirstEndingIn(String prefix) throws IOException {
        for (String line : fixture().lines().toList()) {
            List<String> frames = frames(line);
            String lastJava =
                    frames.reversed().stream().filter(Bucket::java).findFirst().orElse("");
            if (lastJava.startsWith(prefix)) {
                return Bucket.of(frames);
            }
        }
        throw new AssertionError("a stack ending in " + prefix + " in the fixture");
    }

    private static Bucket bucketOf(String line) {
        return Bucket.of(frames(line));
    }

    private static List<String> frames(String line) {
        return List.of(line.substring(0, line.lastIndexOf(' ')).split(";"));
    }

    private static String fixture() throws IOException {
        try (InputStream in = BucketSharesTest.class.getResourceAsStream(FIXTURE)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
