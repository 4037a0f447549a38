package dev.kafkafetch.reliability;

/** One record the route finished: its id and when (epoch ms). */
record Finish(String id, long atMs) {
}
