package dev.threadbench.loadtest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadbench.common.RequestCounter;
import dev.threadbench.common.ServerStats;
import dev.threadbench.common.Strategy;
import dev.threadbench.loadtest.model.ResultsFixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The schemas in docs/reference are a checked reference: what the writers write matches them (the real runs are
 * checked in ServersIT, SweepIT and contract-tests' ContractTest), and a property the writers add without the schema
 * fails there, as these stale documents do.
 */
class JsonSchemasTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void resultsJsonWithAPropertyTheSchemaDoesNotKnowIsRejected() throws Exception {
        JsonNode written = JSON.readTree(ResultsJson.toJson(ResultsFixtures.results()));
        JsonSchemas.assertValid(JsonSchemas.RESULTS, written, "the writer's results.json");

        ObjectNode stale = written.deepCopy();
        ((ObjectNode) stale.get("runs").get(1)).put("serverCpuMillis", 12.3);
        ((ObjectNode) stale.get("settings")).put("warmupMode", "auto");
        List<String> errors = JsonSchemas.errors(JsonSchemas.RESULTS, stale);
        assertEquals(2, errors.size(), errors.toString());
        assertTrue(
                errors.stream().anyMatch(e -> e.startsWith("/settings: ") && e.contains("'warmupMode'")),
                errors.toString());
        assertTrue(
                errors.stream().anyMatch(e -> e.startsWith("/runs/1: ") && e.contains("'serverCpuMillis'")),
                errors.toString());
    }

    @Test
    void resultsJsonWithoutAPropertyTheSchemaRequiresIsRejected() throws Exception {
        ObjectNode written = (ObjectNode) JSON.readTree(ResultsJson.toJson(ResultsFixtures.results()));
        ((ObjectNode) written.get("environment")).remove("gitCommit");
        List<String> errors = JsonSchemas.errors(JsonSchemas.RESULTS, written);
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(
                errors.getFirst().startsWith("/environment: ")
                        && errors.getFirst().contains("'gitCommit'"),
                errors.toString());
    }

    @Test
    void statsWithAPropertyTheSchemaDoesNotKnowIsRejected() throws Exception {
        ServerStats stats = new ServerStats("undertow", Strategy.BLOCKING, new RequestCounter(10));
        JsonNode written = JSON.readTree(stats.toJson(true));
        JsonSchemas.assertValid(JsonSchemas.STATS, written, "the writer's /stats?threads");

        ObjectNode stale = written.deepCopy();
        ((ObjectNode) stale.get("process")).put("openFiles", 42);
        List<String> errors = JsonSchemas.errors(JsonSchemas.STATS, stale);
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(
                errors.getFirst().startsWith("/process: ") && errors.getFirst().contains("'openFiles'"),
                errors.toString());
    }
}
