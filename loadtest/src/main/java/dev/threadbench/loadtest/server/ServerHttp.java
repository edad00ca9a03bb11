package dev.threadbench.loadtest.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A server's /health and /stats, asked over HTTP; shared by the servers compare starts and those already running. */
public final class ServerHttp {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String name;
    private final URI base;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    ServerHttp(String name, URI base) {
        this.name = name;
        this.base = base;
    }

    /** The status GET {@code path} answers, or -1 when nothing answers. */
    public int status(String path) {
        try {
            return http.send(
                            HttpRequest.newBuilder(base.resolve(path))
                                    .timeout(Duration.ofSeconds(2))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /**
     * GET /stats; with {@code threadClasses}, /stats?threads, which adds the bill by thread class (servers that know
     * it).
     */
    public Target.Stats stats(boolean threadClasses) {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(base.resolve(threadClasses ? "/stats?threads" : "/stats"))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new Target.Failure(name + " server: GET /stats answered " + response.statusCode());
            }
            JsonNode json = JSON.readTree(response.body());
            return new Target.Stats(
                    json.path("server").asText(),
                    json.path("strategy").asText(),
                    json.path("requests").asLong(),
                    json.path("delayed").asLong(),
                    json.path("inFlight").asLong(),
                    ProcessFigures.of(json));
        } catch (IOException e) {
            throw new Target.Failure(name + " server: GET /stats failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Target.Failure("interrupted");
        }
    }

    /**
     * Whether GET /stats answers 200 with a JSON object: a server under --targets that answers 404, or anything else
     * (a page, say), has none.
     */
    public boolean hasStats() {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(base.resolve("/stats"))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200
                    && JSON.readTree(response.body()).isObject();
        } catch (IOException e) { // JsonProcessingException among them: not JSON
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Target.Failure("interrupted");
        }
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
