package dev.threadbench.loadtest.live;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * scripts/live-screenshots' camera: opens a live page in headless Chromium, waits until it has drawn two snapshots
 * (so that its charts have a line), and writes what it shows as a PNG. {@code URL FILE}.
 */
final class LiveScreenshot {

    private LiveScreenshot() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: LiveScreenshot URL FILE");
            System.exit(2);
        }
        Path chromium = DevTools.installedChromium()
                .orElseThrow(() -> new IllegalStateException("no Chromium (apt-get install chromium)"));
        Path profile = Files.createTempDirectory("live-screenshot");
        try (DevTools browser = DevTools.start(chromium, profile, "1400,1500")) {
            browser.navigate(args[0], "table");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (browser.evaluate("(window.liveUpdates || []).length").asInt() < 2) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(args[0] + ": no snapshot drawn within 20 s");
                }
                Thread.sleep(200);
            }
            Files.write(Path.of(args[1]), browser.screenshot());
        }
    }
}
