package dev.kafkafetch.reliability;

/**
 * One incarnation of a soak member: a CamelContext in the test JVM or a child JVM, running the combination's route
 * and writing its own history file. A member slot that is restarted gets a new incarnation (a new name).
 */
interface SoakMember {

    /** {@code m<slot>.<incarnation>}, as written in the history. */
    String name();

    boolean child();

    /** Graceful stop: the route stops (commits what is finished, leaves the group); returns once it has. */
    void stop();

    /** SIGKILL: no commit, no leave-group (child JVMs only). */
    void kill();

    void suspend();

    void resume();

    /** A thread dump for a hang report: of this JVM's kafka-fetch threads, or where the child wrote its own. */
    String threadDump();
}
