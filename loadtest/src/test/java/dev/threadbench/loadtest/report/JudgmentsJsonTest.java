package dev.threadbench.loadtest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadbench.loadtest.analysis.Gate;
import dev.threadbench.loadtest.analysis.HistoryBaselines;
import dev.threadbench.loadtest.model.BaselineFixtures;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.ResultsFixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

class JudgmentsJsonTest {

    @Test
    void everyVerdictFigureIsOneEntryWithItsOutcomeAndTheTestsItWasCorrectedOver() throws Exception {
        JsonNode json = new ObjectMapper().readTree(JudgmentsJson.of(ResultsFixtures.threeRounds(), null));
        JsonNode verdict = json.get("verdict");
        assertTrue(verdict.size() >= 3, verdict.toString());
        JsonNode first = verdict.get(0);
        assertEquals(
                "C=2000 undertow/blocking vs vertx/timer", first.get("pair").asText());
        assertEquals("req/s", first.get("figure").asText());
        assertEquals("TOO_FEW_ROUNDS", first.get("outcome").asText(), first.toString());
        assertTrue(first.get("tests").asInt() >= 3, first.toString());
        assertEquals(0, json.get("baseline").size());
        assertEquals(0, json.get("breaches").size());
    }

    @Test
    void theBaselinesFiguresCarryTheirBoundsAndTheBreachesTheirLines() throws Exception {
        Results earlier = BaselineFixtures.run(4, 9900, 2010, 30, 0.005, 1); // the same date: this run itself
        Results current = BaselineFixtures.run(4, 9900, 2010, 60, 0.005, 2);
        Results judged = current.withBaseline(HistoryBaselines.of(List.of(earlier), current, "history"));
        Gate.Check check = Gate.check(Gate.parse(List.of("cpu>+10%", "req/s<1000000000")), judged);
        JsonNode json = new ObjectMapper().readTree(JudgmentsJson.of(judged, check));
        JsonNode cpu = null;
        for (JsonNode figure : json.get("baseline")) {
            if (figure.get("figure").asText().equals("srv us/req")) {
                cpu = figure;
            }
        }
        assertEquals("TOO_FEW_RUNS", cpu.get("outcome").asText(), json.toString());
        assertEquals(1, json.get("breaches").size(), "the absolute limit only: one run is too few for cpu>+10%");
        assertEquals(0, json.get("notes").size(), "a run judged against a history of itself has no change to note");
    }
}
