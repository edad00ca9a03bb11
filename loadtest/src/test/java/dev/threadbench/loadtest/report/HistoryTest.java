package dev.threadbench.loadtest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HistoryTest {

    private static List<Double> series(long seed, double noise, double... levels) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Double> values = new ArrayList<>();
        for (double level : levels) {
            values.add(level * (1 + noise * (2 * random.nextDouble() - 1)));
        }
        return values;
    }

    @Test
    void aStepInTheHistoryIsAChangePointWhereItStarts() {
        List<Double> values = series(1, 0.005, 9900, 9900, 9900, 9900, 9900, 9400, 9400, 9400, 9400, 9400);
        assertEquals(List.of(5), History.changePoints(values));
    }

    @Test
    void twoStepsAreTwoChangePoints() {
        List<Double> values = series(2, 0.003, 30, 30, 30, 30, 30, 34, 34, 34, 34, 34, 31, 31, 31, 31, 31);
        assertEquals(List.of(5, 10), History.changePoints(values));
    }

    @Test
    void aChangeAtTheEndOfTheSeriesIsFlaggedOnceItHasTheMinimumSegmentOfRuns() {
        List<Double> three = series(4, 0.005, 9900, 9900, 9900, 9900, 9900, 9900, 9900, 9400, 9400, 9400);
        assertEquals(List.of(7), History.changePoints(three), "the newest three runs at a new level");
        List<Double> two = series(4, 0.005, 9900, 9900, 9900, 9900, 9900, 9900, 9900, 9900, 9400, 9400);
        assertEquals(List.of(), History.changePoints(two), "two runs that stand out are not yet a level");
        List<Double> one = series(4, 0.005, 9900, 9900, 9900, 9900, 9900, 9900, 9900, 9900, 9900, 8000);
        assertEquals(List.of(), History.changePoints(one), "nor is the newest run alone, however far off");
    }

    @Test
    void aCleanStepInTheNewestThreeRunsNeedsEightRunsInAll() {
        for (int runs = 6; runs <= 8; runs++) {
            List<Double> values = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                values.add((i < runs - History.MIN_SEGMENT ? 100.0 : 90.0) + 0.1 * (i % 3));
            }
            assertEquals(
                    runs < 8 ? List.of() : List.of(runs - History.MIN_SEGMENT),
                    History.changePoints(values),
                    runs + " runs, as History's javadoc and report --help say");
        }
    }

    @Test
    void noiseAloneHasNoChangePoint() {
        int found = 0;
        for (long seed = 0; seed < 50; seed++) {
            found += History.changePoints(
                            series(seed, 0.02, 9900, 9900, 9900, 9900, 9900, 9900, 9900, 9900, 9900, 9900))
                    .size();
        }
        assertEquals(true, found <= 3, found + " change points in 50 flat histories");
    }

    @Test
    void runsWithoutTheFigureAreSkipped() {
        List<Double> values = new ArrayList<>(series(3, 0.003, 100, 100, 100, 100, 120, 120, 120, 120));
        values.add(2, null);
        assertEquals(List.of(5), History.changePoints(values));
    }
}
