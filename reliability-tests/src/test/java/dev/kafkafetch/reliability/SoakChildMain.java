package dev.kafkafetch.reliability;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * The main class of a child-JVM soak member: {@code <seed> <member> <history file> <uri>}. It derives the combination
 * from the seed (the same plan of misbehaving records as the test JVM; a share-group one for a
 * {@code kafka-fetch-share:} URI), runs the soak route, and obeys the commands on
 * its standard input: {@code suspend}, {@code resume}, {@code stop} (graceful, then exit), {@code dump} (print the
 * kafka-fetch threads). It halts when the test JVM that started it is gone, so no consumer outlives a crashed test.
 */
public final class SoakChildMain {

    private SoakChildMain() {
    }

    public static void main(String[] args) throws Exception {
        long seed = Long.parseLong(args[0]);
        String member = args[1];
        Path history = Path.of(args[2]);
        String uri = args[3];
        ProcessHandle parent = ProcessHandle.current().parent().orElse(null);
        Thread watchdog = new Thread(() -> {
            while (true) {
                if (parent == null || !parent.isAlive()) {
                    Runtime.getRuntime().halt(3);
                }
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();

        SoakCase soakCase = uri.startsWith(ShareSoakOptions.SCHEME) ? ShareSoakGenerator.generate(seed).routeCase()
                : SoakGenerator.generate(seed);
        SoakHistoryLog log = new SoakHistoryLog(history);
        SoakRoute route = new SoakRoute(member, log, soakCase);
        CamelContext context = new DefaultCamelContext();
        context.getShutdownStrategy().setTimeout(20);
        route.bindTo(context);
        context.addRoutes(route.builder(uri));
        context.start();
        new SoakTaskWatcher(member, log, () -> SoakTaskWatcher.snapshots(context)).start();
        System.out.println("soak member " + member + " started, pid " + ProcessHandle.current().pid());

        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            switch (line.trim()) {
                case "suspend" -> context.getRouteController().suspendRoute(SoakOptions.ROUTE_ID, 20,
                        TimeUnit.SECONDS);
                case "resume" -> context.getRouteController().resumeRoute(SoakOptions.ROUTE_ID);
                case "dump" -> System.out.println("thread dump of " + member + ":\n"
                                                  + InProcessSoakMember.dumpKafkaFetchThreads());
                case "stop" -> {
                    context.stop();
                    System.out.println("soak member " + member + " stopped");
                    System.out.flush();
                    Runtime.getRuntime().halt(0);
                }
                default -> System.out.println("unknown command " + line);
            }
        }
        // stdin closed: the test JVM is gone
        Runtime.getRuntime().halt(4);
    }
}
