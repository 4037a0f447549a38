package dev.kafkafetch.it.tx;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.model.ProcessorDefinition;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A read → write pipeline in its own JVM, for kill tests: each record sleeps, is written to the output topic, is held
 * longer (so that at any moment most records in flight have written their output but are not finished), and its id is
 * appended to an executions file (one write per execution, survives SIGKILL). Mode {@code tx} writes through
 * {@code to("kafka-fetch:out")} (the consumer URI has transacted=true); mode {@code plain} with a plain producer,
 * synchronously, as a non-transacted pipeline would.
 */
final class PipelineProcess {

    private final Process process;

    private PipelineProcess(Process process) {
        this.process = process;
    }

    /** {@code sleepMs} before the write, {@code holdMs} after it. */
    static PipelineProcess start(String uri, String out, String brokers, String mode, Path executions, int sleepMs,
                                 int holdMs)
            throws IOException {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Path log = Files.createTempFile("pipeline-process", ".log");
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", System.getProperty("java.class.path"),
                PipelineProcess.class.getName(), uri, out, brokers, mode, executions.toString(),
                Integer.toString(sleepMs), Integer.toString(holdMs)));
        return new PipelineProcess(new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
                .start());
    }

    /** SIGKILL: no stop-time commit, no leave-group, a transaction possibly left open. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    static int executions(Path file) throws IOException {
        return Files.exists(file) ? (int) Files.readAllLines(file).stream().filter(l -> !l.isBlank()).count() : 0;
    }

    public static void main(String[] args) throws Exception {
        String uri = args[0];
        String out = args[1];
        String brokers = args[2];
        boolean tx = args[3].equals("tx");
        FileOutputStream executions = new FileOutputStream(args[4], true);
        int sleepMs = Integer.parseInt(args[5]);
        int holdMs = Integer.parseInt(args[6]);
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        KafkaProducer<byte[], byte[]> plain = tx ? null : new KafkaProducer<>(p);
        CamelContext context = new DefaultCamelContext();
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                ProcessorDefinition<?> route = from(uri).process(e -> Thread.sleep(sleepMs));
                if (tx) {
                    route = route.to("kafka-fetch:" + out);
                } else {
                    route = route.process(e -> plain.send(new ProducerRecord<>(out,
                            e.getMessage().getHeader("CamelKafkaKey", byte[].class),
                            e.getMessage().getBody(byte[].class))).get());
                }
                route.process(e -> Thread.sleep(holdMs)).process(e -> {
                    byte[] line = (e.getMessage().getBody(String.class) + "\n").getBytes(StandardCharsets.UTF_8);
                    synchronized (executions) {
                        executions.write(line);
                    }
                });
            }
        });
        context.start();
        Thread.sleep(Long.MAX_VALUE);
    }
}
