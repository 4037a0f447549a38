package dev.kafkafetch.dispatch;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Slots that several {@link Dispatcher}s share: together they run at most {@code size} records at once, and a slot
 * one of them frees goes to whichever has a record ready (a share member's consumers feeding one window: while one
 * waits for its next poll, the other's records use every slot).
 * <p>
 * Thread-safe. A dispatcher takes a slot under its own lock and offers a freed slot to the others only after leaving
 * it, so no two dispatcher locks are ever held at once, and a slot freed while another dispatcher found none is never
 * lost: that dispatcher is offered it afterwards.
 */
public final class SharedSlots {

    private final AtomicInteger free;
    private final List<Dispatcher> members = new CopyOnWriteArrayList<>();

    public SharedSlots(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("size must be positive, was " + size);
        }
        this.free = new AtomicInteger(size);
    }

    /** Registers a dispatcher that draws on these slots (its constructor does). */
    void join(Dispatcher dispatcher) {
        members.add(dispatcher);
    }

    /** Takes a slot if one is free. */
    boolean tryTake() {
        while (true) {
            int n = free.get();
            if (n == 0) {
                return false;
            }
            if (free.compareAndSet(n, n - 1)) {
                return true;
            }
        }
    }

    /** Frees a slot; the caller then {@link #offer}s it once it holds no dispatcher lock. */
    void give() {
        free.incrementAndGet();
    }

    /** Lets the other dispatchers start what they have ready on the slots free now; called holding no lock. */
    void offer(Dispatcher from) {
        for (Dispatcher d : members) {
            if (d != from) {
                d.startReady();
            }
        }
    }

    /** Slots free now (for tests and snapshots). */
    public int free() {
        return free.get();
    }
}
