package dev.threadbench.contract;

import static io.restassured.RestAssured.given;

import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.time.Duration;

/** A server the suite talks to, started by the suite or already running. */
record Target(String name, String baseUrl) {

    @Override
    public String toString() {
        return name;
    }

    Response get(String path) {
        return given().baseUri(baseUrl).when().get(path);
    }

    JsonPath stats() {
        return given().baseUri(baseUrl)
                .when()
                .get("/stats")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    long requestsCounted() {
        return stats().getLong("requests");
    }

    /** A timed {@code GET /}. */
    Timed timedGet() {
        long start = System.nanoTime();
        Response response = get("/");
        return new Timed(response, Duration.ofNanos(System.nanoTime() - start));
    }

    /** Sends requests to {@code /} until the next one is the {@code index}-th (1-based) of a delay cycle. */
    void alignSoNextRequestIs(int index, int delayEvery) {
        while ((requestsCounted() + 1 - index) % delayEvery != 0) {
            get("/").then().statusCode(200);
        }
    }

    /** Waits until the server reports at least {@code count} requests in flight. */
    void awaitInFlight(long count) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (stats().getLong("inFlight") < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(name + ": " + count + " request(s) never showed as in flight");
            }
            Servers.sleep(5);
        }
    }

    record Timed(Response response, Duration elapsed) {
        long millis() {
            return elapsed.toMillis();
        }
    }
}
