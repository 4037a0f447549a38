package dev.kafkafetch.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * The example's settings: command-line arguments win over system properties, which win over the defaults.
 *
 * <pre>
 * --brokers host:port[,host:port]  use an existing cluster; no embedded broker   (-Dexample.brokers)
 * --kafka-port 9092                port of the embedded broker                    (-Dexample.kafka.port)
 * --http-port 8080                 port of the console and health endpoints       (-Dexample.http.port)
 * --rate 50                        sample orders produced per second, 0 = none    (-Dexample.rate)
 * --partitions 6                   partitions of the topics the example creates   (-Dexample.partitions)
 * --duration 0                     stop after this many seconds, 0 = until Ctrl-C (-Dexample.duration)
 * --operator-actions false         let operators pause, resume and park over HTTP  (-Dexample.operatorActions)
 * --stuck-order 0                  the order with this id hangs in billing, 0 = none (-Dexample.stuckOrder)
 * </pre>
 *
 * @param brokers    bootstrap servers of an existing cluster, or null to start the embedded broker
 * @param kafkaPort  the embedded broker's client port (ignored with brokers)
 * @param httpPort   the HTTP port on localhost; 0 picks a free one
 * @param rate       orders produced per second by the sample producer route (0 disables it, at most 1000)
 * @param partitions partitions of the orders topic and its dead-letter topic when the example creates them
 * @param durationSeconds how long {@link OrdersApplication#main} runs; 0 = until Ctrl-C
 * @param operatorActions whether the kafka-fetch routes take operator actions (the component option
 *                        {@code operatorActions}): the page's pause, resume and park buttons
 * @param stuckOrder      the id of an order whose payment call hangs until the example stops (0 = none), to see a
 *                        stuck record on the page and park it
 */
public record ExampleOptions(String brokers, int kafkaPort, int httpPort, int rate, int partitions,
        long durationSeconds, boolean operatorActions, long stuckOrder) {

    public static final int DEFAULT_KAFKA_PORT = 9092;
    public static final int DEFAULT_HTTP_PORT = 8080;
    public static final int DEFAULT_RATE = 50;
    public static final int DEFAULT_PARTITIONS = 6;

    public ExampleOptions {
        if (brokers != null && brokers.isBlank()) {
            brokers = null;
        }
        checkRange("--kafka-port", kafkaPort, 1, 65535);
        checkRange("--http-port", httpPort, 0, 65535);
        checkRange("--rate", rate, 0, 1000);
        checkRange("--partitions", partitions, 1, 10_000);
        checkRange("--duration", durationSeconds, 0, Long.MAX_VALUE);
        checkRange("--stuck-order", stuckOrder, 0, Long.MAX_VALUE);
    }

    /**
     * The defaults: embedded broker on 9092, HTTP on 8080, 50 orders/s, 6 partitions, run until Ctrl-C, no operator
     * actions, no stuck order.
     */
    public static ExampleOptions defaults() {
        return new ExampleOptions(null, DEFAULT_KAFKA_PORT, DEFAULT_HTTP_PORT, DEFAULT_RATE, DEFAULT_PARTITIONS, 0,
                false, 0);
    }

    /** True when the example starts its own broker. */
    public boolean embeddedBroker() {
        return brokers == null;
    }

    public ExampleOptions withBrokers(String value) {
        return new ExampleOptions(value, kafkaPort, httpPort, rate, partitions, durationSeconds, operatorActions,
                stuckOrder);
    }

    public ExampleOptions withKafkaPort(int value) {
        return new ExampleOptions(brokers, value, httpPort, rate, partitions, durationSeconds, operatorActions,
                stuckOrder);
    }

    public ExampleOptions withHttpPort(int value) {
        return new ExampleOptions(brokers, kafkaPort, value, rate, partitions, durationSeconds, operatorActions,
                stuckOrder);
    }

    public ExampleOptions withRate(int value) {
        return new ExampleOptions(brokers, kafkaPort, httpPort, value, partitions, durationSeconds, operatorActions,
                stuckOrder);
    }

    public ExampleOptions withPartitions(int value) {
        return new ExampleOptions(brokers, kafkaPort, httpPort, rate, value, durationSeconds, operatorActions,
                stuckOrder);
    }

    public ExampleOptions withDuration(long seconds) {
        return new ExampleOptions(brokers, kafkaPort, httpPort, rate, partitions, seconds, operatorActions, stuckOrder);
    }

    public ExampleOptions withOperatorActions(boolean value) {
        return new ExampleOptions(brokers, kafkaPort, httpPort, rate, partitions, durationSeconds, value, stuckOrder);
    }

    public ExampleOptions withStuckOrder(long value) {
        return new ExampleOptions(brokers, kafkaPort, httpPort, rate, partitions, durationSeconds, operatorActions,
                value);
    }

    /** Parses the command line on top of the system properties on top of the defaults. */
    public static ExampleOptions parse(String[] args, Properties system) {
        ExampleOptions o = defaults();
        o = o.withBrokers(system.getProperty("example.brokers", o.brokers()));
        o = o.withKafkaPort(intProperty(system, "example.kafka.port", o.kafkaPort()));
        o = o.withHttpPort(intProperty(system, "example.http.port", o.httpPort()));
        o = o.withRate(intProperty(system, "example.rate", o.rate()));
        o = o.withPartitions(intProperty(system, "example.partitions", o.partitions()));
        o = o.withDuration(intProperty(system, "example.duration", (int) o.durationSeconds()));
        o = o.withOperatorActions(booleanProperty(system, "example.operatorActions", o.operatorActions()));
        o = o.withStuckOrder(intProperty(system, "example.stuckOrder", (int) o.stuckOrder()));

        List<String> list = new ArrayList<>();
        for (String arg : args == null ? new String[0] : args) {
            // accept both "--name value" and "--name=value"
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                list.add(arg.substring(0, eq));
                list.add(arg.substring(eq + 1));
            } else {
                list.add(arg);
            }
        }
        for (int i = 0; i < list.size(); i++) {
            String name = list.get(i);
            if (name.equals("--help") || name.equals("-h")) {
                throw new IllegalArgumentException(usage());
            }
            if (i + 1 >= list.size()) {
                throw new IllegalArgumentException("Missing value for " + name + "\n" + usage());
            }
            String value = list.get(++i);
            switch (name) {
                case "--brokers" -> o = o.withBrokers(value);
                case "--kafka-port" -> o = o.withKafkaPort(parseInt(name, value));
                case "--http-port" -> o = o.withHttpPort(parseInt(name, value));
                case "--rate" -> o = o.withRate(parseInt(name, value));
                case "--partitions" -> o = o.withPartitions(parseInt(name, value));
                case "--duration" -> o = o.withDuration(parseInt(name, value));
                case "--operator-actions" -> o = o.withOperatorActions(parseBoolean(name, value));
                case "--stuck-order" -> o = o.withStuckOrder(parseInt(name, value));
                default -> throw new IllegalArgumentException("Unknown option " + name + "\n" + usage());
            }
        }
        return o;
    }

    public static String usage() {
        return """
                Usage: OrdersApplication [options]   (with Maven: mvn -pl examples exec:java -Dexec.args="[options]")
                  --brokers host:port[,...]  use an existing Kafka cluster; no embedded broker is started
                  --kafka-port <port>        client port of the embedded broker (default 9092)
                  --http-port <port>         HTTP port for /q/dev/kafka-fetch and /q/health (default 8080, 0 = any free)
                  --rate <n>                 sample orders produced per second, 0 = none (default 50, max 1000)
                  --partitions <n>           partitions of the topics the example creates (default 6)
                  --duration <seconds>       stop after this many seconds (default 0 = until Ctrl-C)
                  --operator-actions <bool>  let the page at /kafka-fetch pause, resume and park (default false)
                  --stuck-order <id>         the order with this id hangs in billing until the stop (default 0 = none)
                Each option can also be given as a system property: example.brokers, example.kafka.port,
                example.http.port, example.rate, example.partitions, example.duration, example.operatorActions,
                example.stuckOrder.""";
    }

    private static int intProperty(Properties p, String key, int defaultValue) {
        String v = p.getProperty(key);
        return v == null || v.isBlank() ? defaultValue : parseInt(key, v.trim());
    }

    private static boolean booleanProperty(Properties p, String key, boolean defaultValue) {
        String v = p.getProperty(key);
        return v == null || v.isBlank() ? defaultValue : parseBoolean(key, v.trim());
    }

    private static boolean parseBoolean(String name, String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(name + " must be true or false, was '" + value + "'");
        };
    }

    private static int parseInt(String name, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, was '" + value + "'");
        }
    }

    private static void checkRange(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ", was " + value);
        }
    }
}
