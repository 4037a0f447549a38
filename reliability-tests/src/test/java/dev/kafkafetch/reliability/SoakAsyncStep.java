package dev.kafkafetch.reliability;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.apache.camel.AsyncCallback;
import org.apache.camel.Exchange;
import org.apache.camel.support.AsyncProcessorSupport;

/**
 * The soak route's work as an asynchronous step, as a route that calls a non-blocking client does: the S lines are
 * logged on the worker, which gets its thread back at once; the record's work (its slow first execution included) is
 * a delay without a thread, after which a completion thread fails it as the plan says or commits it by hand, logs its
 * E line and completes the exchange. Completions run on a pool without a bound, so a synchronous manual commit that
 * waits for earlier records never holds back their completions.
 */
final class SoakAsyncStep extends AsyncProcessorSupport {

    private final SoakRoute route;
    private final ExecutorService completions;

    SoakAsyncStep(SoakRoute route, String member) {
        this.route = route;
        this.completions = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "soak-async-" + member);
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public boolean process(Exchange exchange, AsyncCallback callback) {
        SoakRoute.Execution x = route.begin(exchange);
        long workMs = 0;
        Exception planned = null;
        try {
            for (SoakRoute.Rec r : x.recs()) {
                workMs += route.behave(r);
            }
        } catch (Exception e) {
            planned = e;
        }
        Exception failure = planned;
        CompletableFuture.delayedExecutor(workMs, TimeUnit.MILLISECONDS, completions).execute(() -> {
            String outcome = "fail interrupted-or-error";
            try {
                if (failure != null) {
                    throw failure;
                }
                route.commit(x);
                outcome = "ok";
            } catch (Exception e) {
                outcome = "fail " + SoakRoute.reason(e);
                exchange.setException(e);
            } finally {
                route.end(x, outcome);
                callback.done(false);
            }
        });
        return false;
    }

    void stopCompletions() {
        completions.shutdownNow();
    }
}
