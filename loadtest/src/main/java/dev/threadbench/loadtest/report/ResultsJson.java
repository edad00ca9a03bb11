package dev.threadbench.loadtest.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.model.Results;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/** results.json: written by compare, read back by report. */
public final class ResultsJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ResultsJson() {}

    public static String toJson(Results results) {
        try {
            return MAPPER.writeValueAsString(results);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write results as JSON", e);
        }
    }

    /** Compact JSON for embedding in the report page: the results, or what the page draws from them. */
    public static String toCompactJson(Object value) {
        try {
            return MAPPER.copy().disable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write results as JSON", e);
        }
    }

    public static void write(Results results, Path file) {
        try {
            Files.writeString(file, toJson(results) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** A results.json, or one gzipped (FILE.json.gz: how docs/measurements keeps a sweep's). */
    public static Results read(Path file) {
        try {
            Results results = MAPPER.readValue(text(file), Results.class);
            if (results == null || results.environment() == null || results.runs() == null) {
                throw new UsageException(file + ": not a results file from loadtest compare (no environment or runs)");
            }
            return results;
        } catch (NoSuchFileException e) {
            throw new UsageException(file + ": no such file");
        } catch (JsonProcessingException e) {
            throw new UsageException(file + ": not a results file from loadtest compare: "
                    + e.getOriginalMessage().lines().findFirst().orElse(""));
        } catch (IOException e) {
            throw new UsageException(file + ": cannot read (" + e.getMessage() + ")");
        }
    }

    private static String text(Path file) throws IOException {
        if (!file.getFileName().toString().endsWith(".gz")) {
            return Files.readString(file);
        }
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
