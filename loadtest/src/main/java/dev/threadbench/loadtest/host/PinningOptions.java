package dev.threadbench.loadtest.host;

import picocli.CommandLine.Option;

/** compare's options for the CPUs the servers and the load generator run on; checked by {@link CpuPinning#decide}. */
public final class PinningOptions {

    @Option(
            names = "--server-cpus",
            paramLabel = "LIST",
            description = "CPUs for the servers (both get the same), as taskset writes them, e.g. 0-3 or 0,2"
                    + " (default: half of the host's; the generator gets the rest)")
    private String serverCpus;

    @Option(
            names = "--generator-cpus",
            paramLabel = "LIST",
            description =
                    "CPUs for the load generator: this JVM and the wrk or drill it runs (default: those the servers"
                            + " do not get)")
    private String generatorCpus;

    @Option(
            names = "--no-pin",
            description = "run servers and generator on all CPUs, sharing them (default: disjoint sets"
                    + " when there are 2 CPUs or more and taskset is installed)")
    private boolean noPin;

    public CpuPinning.Request request(boolean targets) {
        return new CpuPinning.Request(serverCpus, generatorCpus, noPin, targets);
    }
}
