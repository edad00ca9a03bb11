package dev.threadbench.loadtest.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpreadTest {

    @Test
    void theMedianIsTheMiddleRoundOrTheMeanOfTheTwoMiddleOnes() {
        assertEquals(new Spread(9994, 9960, 10003, 3), Spread.of(List.of(10003.0, 9960.0, 9994.0)));
        assertEquals(new Spread(15, 10, 40, 4), Spread.of(List.of(40.0, 10.0, 20.0, 10.0)));
        assertEquals(new Spread(7, 7, 7, 1), Spread.of(List.of(7.0)));
        assertEquals(
                new Spread(2, 1, 3, 2), Spread.of(Arrays.asList(1.0, null, 3.0)), "a figure a round lacks is left out");
        assertNull(Spread.of(Arrays.asList(null, null)), "a figure no round has");
        assertEquals(0.0043, Spread.of(List.of(10003.0, 9960.0, 9994.0)).relativeRange(), 0.0001);
    }

    @Test
    void theRangeIsShownNextToTheMedianFromTwoRoundsOn() {
        assertEquals(
                "9,994 (9,960-10,003)",
                Spread.of(List.of(10003.0, 9960.0, 9994.0)).format("%,.0f"));
        assertEquals("9,994", Spread.of(List.of(9994.0)).format("%,.0f"));
        assertEquals("-", Spread.format(null, "%,.0f"));
    }

    @Test
    void twoCellsDifferOnlyWhereTheirRangesDoNotOverlap() {
        Spread a = Spread.of(List.of(100.0, 104.0, 102.0));
        assertEquals(
                Spread.Judgement.APART,
                Spread.judge(a, Spread.of(List.of(105.0, 106.0, 105.5))),
                "105 above 104, though the medians lie 3.5 apart against a range of 4");
        assertEquals(
                Spread.Judgement.APART, Spread.judge(Spread.of(List.of(105.0, 106.0, 105.5)), a), "either way round");
        assertEquals(
                Spread.Judgement.OVERLAP,
                Spread.judge(
                        Spread.of(List.of(9990.0, 10000.0, 10010.0)), Spread.of(List.of(10005.0, 10030.0, 10031.0))),
                "10,005 below 10,010: the ranges overlap, the medians' gap (30) wider than either range");
        assertEquals(
                Spread.Judgement.OVERLAP,
                Spread.judge(a, Spread.of(List.of(104.0, 107.0))),
                "ranges that meet at one end overlap");
        assertEquals(
                Spread.Judgement.NO_SPREAD,
                Spread.judge(Spread.of(List.of(100.0)), Spread.of(List.of(200.0))),
                "one round: no spread to judge by, however far apart");
        assertEquals(Spread.Judgement.NOT_MEASURED, Spread.judge(a, null));
    }
}
