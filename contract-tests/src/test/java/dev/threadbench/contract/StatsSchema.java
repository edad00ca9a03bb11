package dev.threadbench.contract;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;

/** docs/reference/stats.schema.json, the reference of GET /stats (draft 2020-12). */
final class StatsSchema {

    static final String PATH = "docs/reference/stats.schema.json";

    private static final Schema SCHEMA = load();

    private StatsSchema() {}

    /** Each way the JSON {@code body} breaks the schema, as "/pointer: message"; empty for none. */
    static List<String> errors(String body) {
        return SCHEMA.validate(body, InputFormat.JSON).stream()
                .map(Error::toString)
                .toList();
    }

    private static Schema load() {
        try (InputStream in = Files.newInputStream(Servers.projectRoot().resolve(PATH))) {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                    .getSchema(in, InputFormat.JSON);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
