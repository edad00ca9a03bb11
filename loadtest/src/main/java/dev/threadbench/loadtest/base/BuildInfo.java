package dev.threadbench.loadtest.base;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** Versions the project was built with, filtered into loadtest-build.properties by Maven. */
public record BuildInfo(
        String projectVersion, String undertowVersion, String vertxVersion, String echartsVersion, String buildTime) {

    /**
     * This jar's build: version and build time. Agents and compare of different builds refuse each other, since
     * their messages and their runner's behaviour may differ.
     */
    public String buildId() {
        return projectVersion + " built " + buildTime;
    }

    public static BuildInfo get() {
        Properties properties = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream("/loadtest-build.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new BuildInfo(
                properties.getProperty("project.version", "unknown"),
                properties.getProperty("undertow.version", "unknown"),
                properties.getProperty("vertx.version", "unknown"),
                properties.getProperty("echarts.version", "unknown"),
                properties.getProperty("build.time", "unknown"));
    }
}
