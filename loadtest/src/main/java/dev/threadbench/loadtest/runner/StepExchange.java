package dev.threadbench.loadtest.runner;

import dev.threadbench.loadtest.plan.Plan;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

/** What one plan step sends, and what counts as its answer, for the runner's slots. */
final class StepExchange {

    private StepExchange() {}

    /** A 2xx status and, when the answer states a Content-Length, a body of exactly that many bytes. */
    static FailureCause check(HttpClientResponse response, Buffer body, boolean head) {
        int status = response.statusCode();
        if (status < 200 || status > 299) {
            return FailureCause.NON_2XX;
        }
        String contentLength = response.getHeader("Content-Length");
        if (!head && contentLength != null) {
            try {
                if (Long.parseLong(contentLength.trim()) != body.length()) {
                    return FailureCause.SHORT_BODY;
                }
            } catch (NumberFormatException e) {
                return FailureCause.OTHER;
            }
        }
        return null;
    }

    /** The step's request: method, host, port, path and query, headers, and the timeout as the idle timeout. */
    static RequestOptions options(Plan.Step step, int timeoutMillis) {
        String path = step.url().getRawPath() == null || step.url().getRawPath().isEmpty() ? "/" : step.url().getRawPath();
        if (step.url().getRawQuery() != null) {
            path += "?" + step.url().getRawQuery();
        }
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.valueOf(step.method()))
                .setHost(step.url().getHost())
                .setPort(step.url().getPort() > 0 ? step.url().getPort() : 80)
                .setURI(path)
                .setIdleTimeout(timeoutMillis);
        step.headers().forEach(options::putHeader);
        return options;
    }
}
