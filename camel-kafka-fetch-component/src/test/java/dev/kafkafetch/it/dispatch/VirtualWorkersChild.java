package dev.kafkafetch.it.dispatch;

import java.io.FileOutputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * A consumer JVM for {@link VirtualThreadWorkersIT}, run on a Java 21+ runtime: a blocking route that writes one line
 * per finished record (id, whether its thread is virtual), and once started a line {@code #fetch-platform n} with the
 * number of platform fetch threads. It halts when its parent is gone.
 */
public final class VirtualWorkersChild {

    private static final ReentrantLock WRITE = new ReentrantLock();

    private VirtualWorkersChild() {
    }

    public static void main(String[] args) throws Exception {
        String uri = args[0];
        String topic = args[1];
        FileOutputStream out = new FileOutputStream(args[2], true);
        Method isVirtual = Thread.class.getMethod("isVirtual"); // Java 21+; this class is compiled for 17
        ProcessHandle parent = ProcessHandle.current().parent().orElse(null);
        Thread watchdog = new Thread(() -> {
            while (parent != null && parent.isAlive()) {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
            }
            Runtime.getRuntime().halt(3);
        }, "parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        CamelContext context = new DefaultCamelContext();
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(exchange -> {
                    Thread.sleep(100);
                    boolean virtual = (Boolean) isVirtual.invoke(Thread.currentThread());
                    write(out, exchange.getMessage().getBody(String.class) + " " + virtual);
                });
            }
        });
        context.start();
        // the fetch threads are platform threads (a virtual one would not be listed here)
        int fetchPlatform = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().contains("KafkaFetchConsumer[" + topic + "]")) {
                fetchPlatform++;
            }
        }
        write(out, "#fetch-platform " + fetchPlatform);
        Thread.currentThread().join();
    }

    private static void write(FileOutputStream out, String line) throws Exception {
        byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
        // a lock, not synchronized: a virtual thread blocking inside synchronized pins its carrier before Java 24
        WRITE.lock();
        try {
            out.write(bytes);
        } finally {
            WRITE.unlock();
        }
    }
}
