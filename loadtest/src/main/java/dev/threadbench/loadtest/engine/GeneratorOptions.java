package dev.threadbench.loadtest.engine;

import dev.threadbench.loadtest.runner.GeneratorTransport;
import dev.threadbench.loadtest.runner.SourceAddresses;
import java.net.InetAddress;
import java.util.List;
import picocli.CommandLine.Option;

/** The embedded runner's I/O options, the same for {@code run} and {@code compare}. */
public final class GeneratorOptions {

    @Option(
            names = "--transport",
            paramLabel = "NAME",
            defaultValue = "epoll",
            description =
                    "the embedded runner's I/O: epoll, io_uring or nio; one that cannot start here falls back to epoll,"
                            + " saying why (default ${DEFAULT-VALUE})")
    private String transport;

    @Option(
            names = "--source-addresses",
            paramLabel = "LIST",
            description =
                    "local IPv4 addresses the embedded runner's connections bind to in turn, a range or a list, e.g."
                            + " 127.0.0.2-127.0.0.9: one address opens at most as many connections to a server port"
                            + " as there are"
                            + " ephemeral ports (about 28,000), and its connect() slows down past half of them;"
                            + " default: the system's"
                            + " choice, or, on loopback past a quarter of one address's ports, 127.0.0.2 onwards")
    private String sourceAddresses;

    /** What was asked for, checked. */
    public Setup setup() {
        return new Setup(GeneratorTransport.parse(transport), SourceAddresses.parse(sourceAddresses));
    }

    /** The embedded runner's transport and the source addresses given (empty: none). */
    public record Setup(GeneratorTransport transport, List<InetAddress> sourceAddresses) {

        public static final Setup DEFAULT = new Setup(GeneratorTransport.DEFAULT, List.of());

        public Setup {
            sourceAddresses = List.copyOf(sourceAddresses);
        }
    }
}
