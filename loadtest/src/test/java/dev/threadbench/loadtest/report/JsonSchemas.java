package dev.threadbench.loadtest.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JSON Schemas in docs/reference (draft 2020-12), and a check of a document against one that names every error:
 * {@link #RESULTS} for results.json, {@link #STATS} for the servers' GET /stats.
 */
public final class JsonSchemas {

    public static final String RESULTS = "results.schema.json";
    public static final String STATS = "stats.schema.json";

    private static final Path REFERENCE =
            Path.of("..").toAbsolutePath().normalize().resolve("docs/reference");
    private static final SchemaRegistry REGISTRY =
            SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final Map<String, Schema> LOADED = new ConcurrentHashMap<>();

    private JsonSchemas() {}

    /** Each way {@code document} breaks docs/reference/{@code schemaFile}, as "/pointer: message"; empty for none. */
    public static List<String> errors(String schemaFile, JsonNode document) {
        return LOADED.computeIfAbsent(schemaFile, JsonSchemas::load).validate(document).stream()
                .map(Error::toString)
                .toList();
    }

    /** Fails, listing the errors, unless {@code document} (named {@code what} in the message) matches the schema. */
    public static void assertValid(String schemaFile, JsonNode document, String what) {
        List<String> errors = errors(schemaFile, document);
        assertTrue(
                errors.isEmpty(),
                what + " does not match docs/reference/" + schemaFile + ":\n  " + String.join("\n  ", errors));
    }

    private static Schema load(String schemaFile) {
        try {
            return REGISTRY.getSchema(
                    new ObjectMapper().readTree(REFERENCE.resolve(schemaFile).toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
