package dev.threadbench.loadtest.model;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Locale;

/**
 * One server x strategy over a sweep's concurrencies (the grid's and those it narrowed in on): memory per 1,000
 * connections (the least-squares slope of heap after GC and of peak RSS against concurrency, over the cells' medians),
 * CPU per request at 2000 (or the swept concurrency nearest it), and the breaking point. What results.json's
 * {@code sweep} section holds, one entry per pair.
 *
 * @param breakingPoint the server's breaking point: a readable number between {@code heldAt} and {@code notHeldAt};
 *                      null unless {@code limit} is the server's, it held somewhere and its ends, measured again,
 *                      agree: a pair the generator or the machine stopped, or whose limit the evidence does not show,
 *                      has none
 * @param heldAt        the largest concurrency that held ({@code SweepPairs.holds}: in every one of its rounds,
 *                      every reading of it pooled); null when it held at none. A lower one that fell short
 *                      (one noisy point, say) does not move it, but {@code shortBelow} names it
 * @param notHeldAt     the first concurrency above {@code heldAt} (or the lowest, when it held at none) that held in
 *                      none of its rounds, every reading pooled; else the first above it, held in some rounds only;
 *                      null when it held at every one run above
 * @param limit         what stopped it where holding first failed, from the evidence in the rounds that did not hold
 *                      there (both readings' rounds) set against the held end's ({@link Limit})
 * @param limitAt       where that limit showed: the lowest concurrency above {@code heldAt} (the band's lowest, or
 *                      {@code notHeldAt}), or for a concurrency not run that one; null for none
 * @param limitDetail   that in words, with the evidence: each side's CPU share, the worker pool, drops, failures
 * @param shortBelow    the concurrencies below {@code heldAt} that fell short or had failures, with their figures; null
 *                      when none did
 * @param ends          {@code heldAt} and {@code notHeldAt} as first read and as measured again after the narrowing in,
 *                      with the narrowing's procedure, and any other concurrency whose two readings differ; null when
 *                      none was measured again
 * @param band          the concurrencies above {@code heldAt}, each held in some of its rounds and not in others
 *                      ({@link Hold#MIXED}): between the ends, where a run holds or collapses by chance, or above
 *                      {@code notHeldAt} (noise, shown); null when none
 * @param notHeldBelow  the concurrencies below {@code heldAt} held in none of their rounds: the pair is then
 *                      non-monotone and gets no breaking point; null when none (and in files from before 2026-12-07)
 */
@JsonPropertyOrder({"server", "strategy", "breakingPoint", "heldAt", "notHeldAt", "limit", "limitDetail", "limitAt"})
public record SweepPair(
        String server,
        String strategy,
        Integer breakingPoint,
        Integer heldAt,
        Integer notHeldAt,
        Limit limit,
        String limitDetail,
        Integer limitAt,
        String shortBelow,
        Double heapMbPer1000,
        Double rssMbPer1000,
        int cpuConcurrency,
        Spread cpuMicrosPerRequest,
        Spread cpuUserMicrosPerRequest,
        Spread cpuSystemMicrosPerRequest,
        Ends ends,
        List<Share> band,
        List<Integer> notHeldBelow) {

    /**
     * A concurrency between the last held and the first not held that held in some of its rounds (all readings) and not
     * in others: where a run holds or collapses by chance.
     */
    public record Share(int concurrency, long heldRounds, int rounds) {

        /** "5,500 (held in 4 of 6 rounds)". */
        public String describe() {
            return String.format(Locale.ROOT, "%,d (held in %d of %d rounds)", concurrency, heldRounds, rounds);
        }
    }

    /**
     * One concurrency's reading: its median share of the bound, the rounds with failed requests, whether it held, and
     * the procedure that measured it ({@link Run#phase}).
     */
    public record Reading(
            int concurrency,
            Run.Phase phase,
            Double ratio,
            long failedRounds,
            int rounds,
            boolean held,
            Long heldRounds) {

        /** A reading from before rounds held were counted (results.json files written before 2026-12-04). */
        public Reading(int concurrency, Run.Phase phase, Double ratio, long failedRounds, int rounds, boolean held) {
            this(concurrency, phase, ratio, failedRounds, rounds, held, null);
        }

        /** This reading's class alone ({@link Hold}); held or not held for a reading without its rounds held. */
        public Hold hold() {
            return heldRounds == null ? (held ? Hold.HELD : Hold.NOT_HELD) : Hold.of(heldRounds, rounds);
        }

        /** Two readings of one concurrency as one: their rounds pooled, or both alike for readings without them. */
        static Hold pooled(Reading a, Reading b) {
            if (a.heldRounds == null || b.heldRounds == null) {
                return a.held && b.held ? Hold.HELD : !a.held && !b.held ? Hold.NOT_HELD : Hold.MIXED;
            }
            return Hold.of(a.heldRounds + b.heldRounds, a.rounds + b.rounds);
        }

        /**
         * "99.0 % (grid, 3 rounds)"; held in some rounds only "96.1 % (narrowing, 3 rounds, held in 2)"; with failures
         * "94.0 % (ends, 3 rounds, failures in 1)".
         */
        public String describe() {
            return String.format(
                    Locale.ROOT,
                    "%s (%s, %d round%s%s%s)",
                    ratio == null ? "-" : String.format(Locale.ROOT, "%.1f %%", 100 * ratio),
                    phase == null ? "one server" : phase,
                    rounds,
                    rounds == 1 ? "" : "s",
                    heldRounds == null || heldRounds == 0 || heldRounds == rounds ? "" : ", held in " + heldRounds,
                    failedRounds == 0 ? "" : ", failures in " + failedRounds);
        }
    }

    /** One concurrency as first read and as read again with the ends' procedure. */
    public record Remeasured(Reading first, Reading again) {

        /** "10,500: 97.0 % (narrowing, 3 rounds), again 93.0 % (ends, 3 rounds)". */
        public String describe() {
            return String.format(
                    Locale.ROOT, "%,d: %s, again %s", first.concurrency(), first.describe(), again.describe());
        }
    }

    /**
     * The two ends of a pair's interval as first read and as measured again after the narrowing in (null where not
     * measured again; {@code held} null when it held nowhere), and every other concurrency read twice whose two
     * readings differ ({@code disputed}, null when none), wherever it lies: an end read otherwise the second time is no
     * end, the interval widens past it to the next one out, measured again in its turn.
     */
    public record Ends(
            Reading held, Reading heldAgain, Reading notHeld, Reading notHeldAgain, List<Remeasured> disputed) {

        /** Whether both ends were measured again and each read alike both times: held, and not held. */
        public boolean agree() {
            return held != null
                    && heldAgain != null
                    && notHeldAgain != null
                    && Reading.pooled(held, heldAgain) == Hold.HELD
                    && Reading.pooled(notHeld, notHeldAgain) == Hold.NOT_HELD;
        }

        /** Whether an end measured again read otherwise than the first time. */
        public boolean endsDisagree() {
            return (held != null && heldAgain != null && Reading.pooled(held, heldAgain) != Hold.HELD)
                    || (notHeldAgain != null && Reading.pooled(notHeld, notHeldAgain) != Hold.NOT_HELD);
        }

        /** Whether some concurrency read held once and not held the other time: an end, or another one. */
        public boolean nonMonotone() {
            return endsDisagree() || (disputed != null && !disputed.isEmpty());
        }

        /**
         * "agree", "agree, other readings disagree", "disagree (non-monotone)", "unconfirmed, other readings disagree"
         * or "not both measured again".
         */
        public String verdict() {
            if (agree()) {
                return nonMonotone() ? "agree, other readings disagree" : "agree";
            }
            if (endsDisagree()) {
                return "disagree (non-monotone)";
            }
            return nonMonotone() ? "unconfirmed, other readings disagree" : "not both measured again";
        }

        /**
         * "held 10,000: 99.0 % (grid, 3 rounds), again 98.0 % (ends, 3 rounds); not held 11,000: ...", then "; read
         * otherwise the second time: 10,500: ..." when some were.
         */
        public String describe() {
            return (held == null
                            ? "held at none"
                            : String.format(
                                    Locale.ROOT,
                                    "held %,d: %s, again %s",
                                    held.concurrency(),
                                    held.describe(),
                                    again(heldAgain)))
                    + String.format(
                            Locale.ROOT,
                            "; not held %,d: %s, again %s",
                            notHeld.concurrency(),
                            notHeld.describe(),
                            again(notHeldAgain))
                    + (disputed == null || disputed.isEmpty()
                            ? ""
                            : "; read otherwise the second time: "
                                    + String.join(
                                            "; ",
                                            disputed.stream()
                                                    .map(Remeasured::describe)
                                                    .toList()));
        }

        private static String again(Reading reading) {
            return reading == null ? "not measured" : reading.describe();
        }
    }

    /**
     * Its ends measured again in words, as the tables and the verdict print them: "ends measured again, agree: held
     * ...", the verdict in capitals when some reading disagrees; empty when none was measured again.
     */
    public String endsReading() {
        String held = band == null
                ? ""
                : "held in some rounds only: "
                        + String.join(", ", band.stream().map(Share::describe).toList());
        if (ends == null) {
            return held;
        }
        String verdict = nonMonotone() ? ends.verdict().toUpperCase(Locale.ROOT) : ends.verdict();
        return "ends measured again, " + verdict + ": " + ends.describe() + (held.isEmpty() ? "" : "; " + held);
    }

    public String label() {
        return server + "/" + strategy;
    }

    /**
     * Whether the server itself, not the generator or the machine, stopped it, as the evidence shows, and its ends
     * measured again (when they were) agree: only then is its breaking point its own and set against others.
     */
    public boolean serverLimited() {
        return limit == Limit.SERVER && (ends == null || ends.agree()) && notHeldBelow == null;
    }

    /**
     * Whether some reading, measured again, disagrees with its first: an end (no breaking point then) or another
     * concurrency (one the interval was widened past, say); both readings shown. Or a concurrency below the held end
     * held in none of its rounds ({@code notHeldBelow}).
     */
    public boolean nonMonotone() {
        return (ends != null && ends.nonMonotone()) || notHeldBelow != null;
    }

    /**
     * (notHeldAt - heldAt) / heldAt: how far apart the last concurrency held and the first not held are; null without
     * both.
     */
    public Double interval() {
        return heldAt == null || notHeldAt == null ? null : (notHeldAt - heldAt) / (double) heldAt;
    }

    /**
     * The breaking point in words: "6,900 (held 6,560, not held 7,190)" when the server stopped it; "not found:
     * generator limit at 7,190 (held 6,560)" or "not found: machine limit at 20,000 (held 19,000)" when something else
     * did (never the server's breaking point); "unexplained: not held at 7,190 (held 6,560)"; "non-monotone: ..." when
     * its ends, measured again, disagree; "not found: held at every concurrency, up to 10,000"; "below 250 (not held
     * there)".
     */
    public String reading() {
        String held = heldAt == null ? "" : String.format(Locale.ROOT, " (held %,d)", heldAt);
        if (notHeldBelow != null && heldAt != null) {
            return String.format(
                    Locale.ROOT,
                    "non-monotone: held %,d, not held %,d, and below the held end not held at %s",
                    heldAt,
                    notHeldAt,
                    String.join(
                            ", ",
                            notHeldBelow.stream()
                                    .map(c -> String.format(Locale.ROOT, "%,d", c))
                                    .toList()));
        }
        if (ends != null && !ends.agree() && heldAt != null) {
            return String.format(
                    Locale.ROOT,
                    ends.endsDisagree()
                            ? "non-monotone: held %,d, not held %,d, readings disagree measured again"
                            : "unconfirmed: held %,d and not held %,d not both measured again",
                    heldAt,
                    notHeldAt);
        }
        return switch (limit) {
            case SERVER ->
                breakingPoint == null
                        ? String.format(Locale.ROOT, "below %,d (not held there)", notHeldAt)
                        : String.format(Locale.ROOT, "%,d (held %,d, not held %,d)", breakingPoint, heldAt, notHeldAt);
            case NONE -> String.format(Locale.ROOT, "not found: held at every concurrency, up to %,d", heldAt);
            case UNEXPLAINED -> String.format(Locale.ROOT, "unexplained: not held at %,d%s", notHeldAt, held);
            default -> String.format(Locale.ROOT, "not found: %s limit at %,d%s", limit, limitAt, held);
        };
    }
}
