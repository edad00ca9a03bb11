package dev.threadbench.loadtest.host;

import dev.threadbench.loadtest.base.UsageException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A set of CPUs as taskset and /proc write it: {@code 0-3,6}. Parsed from options and from
 * /proc/self/status (Cpus_allowed_list), split into the server's and the generator's halves.
 */
public final class CpuSet {

    /** Far more CPUs than any machine this runs on: a typo such as 1000000 is refused, not allocated. */
    public static final int MAX_CPU = 4095;

    private final BitSet cpus;

    private CpuSet(BitSet cpus) {
        this.cpus = cpus;
    }

    public static CpuSet of(int... cpus) {
        BitSet set = new BitSet();
        for (int cpu : cpus) {
            set.set(cpu);
        }
        return new CpuSet(set);
    }

    /**
     * {@code 0-3,6} (ranges and single CPUs, comma-separated, blanks around them allowed).
     *
     * @param what names the text in the one-line error, e.g. "--server-cpus"
     */
    public static CpuSet parse(String what, String text) {
        BitSet set = new BitSet();
        for (String part : text.split(",", -1)) {
            String item = part.trim();
            if (!item.matches("\\d{1,6}(-\\d{1,6})?")) {
                throw new UsageException(what + ": expected a CPU list such as 0-3,6, got '" + text.trim() + "'");
            }
            int dash = item.indexOf('-');
            int from = Integer.parseInt(dash < 0 ? item : item.substring(0, dash));
            int to = dash < 0 ? from : Integer.parseInt(item.substring(dash + 1));
            if (from > to) {
                throw new UsageException(what + ": range " + item + " runs backwards (write " + to + "-" + from + ")");
            }
            if (to > MAX_CPU) {
                throw new UsageException(what + ": CPU " + to + " is beyond " + MAX_CPU);
            }
            set.set(from, to + 1);
        }
        return new CpuSet(set);
    }

    public int size() {
        return cpus.cardinality();
    }

    public boolean isEmpty() {
        return cpus.isEmpty();
    }

    public boolean contains(int cpu) {
        return cpus.get(cpu);
    }

    public List<Integer> cpus() {
        return cpus.stream().boxed().toList();
    }

    public CpuSet minus(CpuSet other) {
        BitSet rest = (BitSet) cpus.clone();
        rest.andNot(other.cpus);
        return new CpuSet(rest);
    }

    public CpuSet intersection(CpuSet other) {
        BitSet both = (BitSet) cpus.clone();
        both.and(other.cpus);
        return new CpuSet(both);
    }

    public CpuSet union(CpuSet other) {
        BitSet all = (BitSet) cpus.clone();
        all.or(other.cpus);
        return new CpuSet(all);
    }

    /** The server's and the generator's sets. */
    public record Halves(CpuSet server, CpuSet generator) {}

    /**
     * This set in two: the server gets the first half (the larger when the cores do not divide evenly),
     * the generator the rest. Hyper-threads of one core ({@code siblings}) stay on one side, so the two
     * never share a core's execution units; a set of one core's threads is split between them.
     */
    public Halves halves(IntFunction<CpuSet> siblings) {
        List<CpuSet> cores = new ArrayList<>();
        CpuSet left = this;
        while (!left.isEmpty()) {
            int first = left.cpus.nextSetBit(0);
            CpuSet core = siblings.apply(first).intersection(left).union(CpuSet.of(first));
            cores.add(core);
            left = left.minus(core);
        }
        if (cores.size() < 2) {
            List<Integer> all = cpus();
            int serverCount = (all.size() + 1) / 2;
            return new Halves(
                    CpuSet.of(all.subList(0, serverCount).stream()
                            .mapToInt(i -> i)
                            .toArray()),
                    CpuSet.of(all.subList(serverCount, all.size()).stream()
                            .mapToInt(i -> i)
                            .toArray()));
        }
        int serverCores = (cores.size() + 1) / 2;
        CpuSet server = CpuSet.of();
        CpuSet generator = CpuSet.of();
        for (int i = 0; i < cores.size(); i++) {
            if (i < serverCores) {
                server = server.union(cores.get(i));
            } else {
                generator = generator.union(cores.get(i));
            }
        }
        return new Halves(server, generator);
    }

    /** {@code 0-3,6}: ranges where CPUs follow each other. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        int from = cpus.nextSetBit(0);
        while (from >= 0) {
            int to = cpus.nextClearBit(from) - 1;
            text.append(text.isEmpty() ? "" : ",").append(from).append(from == to ? "" : "-" + to);
            from = cpus.nextSetBit(to + 1);
        }
        return text.toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CpuSet set && set.cpus.equals(cpus);
    }

    @Override
    public int hashCode() {
        return cpus.hashCode();
    }
}
