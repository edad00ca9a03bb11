# Builds one module of the project from source and runs its jar. docker-compose.yml builds:
#   target server          MODULE=undertow-server PORT=8080  /  MODULE=vertx-server PORT=8081
#   target app             MODULE=loadtest                   (the project's own load runner)
#   target contract-tests                                     (the REST-assured suite, run by Maven)
# Base images are arguments so an air-gapped build can substitute its own (.ci/compose-smoke does).
ARG BUILD_IMAGE=eclipse-temurin:25-jdk
ARG RUNTIME_IMAGE=eclipse-temurin:25-jre

FROM ${BUILD_IMAGE} AS build
ARG MODULE=undertow-server
WORKDIR /workspace
COPY . .
RUN ./mvnw -B -q -pl "${MODULE}" -am package -DskipTests

# The suite runs under Maven. Its siblings are installed so that it runs alone, and its one test that
# needs no server (these deployment files against the servers) runs now, which also fetches the
# test runner's own dependencies: the container needs no network (-o).
FROM ${BUILD_IMAGE} AS contract-tests
WORKDIR /workspace
COPY . .
RUN ./mvnw -B -q -pl contract-tests -am install -DskipTests \
 && ./mvnw -B -q -pl contract-tests verify -Dit.test=DeploymentFilesTest
ENTRYPOINT ["./mvnw", "-B", "-o", "-pl", "contract-tests", "verify"]

FROM ${RUNTIME_IMAGE} AS app
ARG MODULE=undertow-server
# eclipse-temurin's JRE image has neither curl nor wget, and the healthcheck needs one.
RUN if ! command -v curl >/dev/null; then \
      apt-get update && apt-get install -y --no-install-recommends curl && rm -rf /var/lib/apt/lists/*; \
    fi \
 && useradd --uid 10001 --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin threadbench
COPY --from=build /workspace/${MODULE}/target/${MODULE}.jar /opt/threadbench/app.jar
USER 10001
# Heap: half the container's memory, so that the other half holds up to 10,000 platform thread
# stacks (the blocking strategy) plus metaspace and buffers. An explicit collector, since below
# 2 CPUs or 1792 MB the JVM would pick Serial. ZGC scans thread stacks concurrently: with
# thousands of parked threads, G1's stop-the-world root scan would add pauses to the tail
# latencies being compared. Both servers run with the same options.
ENV JDK_JAVA_OPTIONS="-XX:MaxRAMPercentage=50 -XX:+UseZGC -XX:+ExitOnOutOfMemoryError"
ENTRYPOINT ["java", "-jar", "/opt/threadbench/app.jar"]

FROM app AS server
ARG PORT=8080
ENV PORT=${PORT}
EXPOSE ${PORT}
HEALTHCHECK --interval=5s --timeout=3s --start-period=30s --retries=3 \
  CMD curl -fsS -o /dev/null "http://127.0.0.1:${PORT}/health" || exit 1
