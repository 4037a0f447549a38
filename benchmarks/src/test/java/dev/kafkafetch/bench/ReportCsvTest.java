package dev.kafkafetch.bench;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReportCsvTest {

    /** Splits one CSV line on the commas outside quotes (RFC 4180 quoting, "" inside a quoted field). */
    private static List<String> fields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder f = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (quoted && ch == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                f.append('"');
                i++;
            } else if (ch == '"') {
                quoted = !quoted;
            } else if (ch == ',' && !quoted) {
                out.add(f.toString());
                f.setLength(0);
            } else {
                f.append(ch);
            }
        }
        out.add(f.toString());
        return out;
    }

    @Test
    void aCommaInTheOrderingOrANoteShiftsNoColumn() {
        ContenderSpec floor = CamelFloor.spec("camel: 9 headers, pooled");
        ContenderSpec kf = ContenderSpec.kafkaFetch(1, 4, "UNORDERED").withRoute(RouteVariant.HEADERS)
                .withKeys("zipf");
        List<Result> results = List.of(
                new Result(Harness.S8, floor, "records/s", "rec/s", List.of(1.0, 2.0), -1, -1, -1,
                        "one thread, \"quoted\", no Kafka"),
                new Result(Harness.S3, kf, Harness.RATE, "rec/s", List.of(3.0), 10, 10, -1, "window, 4 s"));
        BenchConfig cfg = BenchConfig.smoke();
        cfg.seed = 99;

        String[] lines = new Report(results, cfg, "broker, here", "0.1").csv().split("\n");

        List<String> header = fields(lines[0]);
        assertThat(lines).hasSize(3);
        for (int i = 1; i < lines.length; i++) {
            assertThat(fields(lines[i])).as(lines[i]).hasSameSizeAs(header);
        }
        List<String> floorRow = fields(lines[1]);
        assertThat(floorRow.get(header.indexOf("ordering"))).isEqualTo("camel: 9 headers, pooled");
        assertThat(floorRow.get(header.indexOf("note"))).isEqualTo("one thread, \"quoted\", no Kafka");
        assertThat(floorRow.get(header.indexOf("seed"))).isEqualTo("99");
        List<String> kfRow = fields(lines[2]);
        assertThat(kfRow.get(header.indexOf("route"))).isEqualTo("headers");
        assertThat(kfRow.get(header.indexOf("keys"))).isEqualTo("zipf");
        assertThat(kfRow.get(header.indexOf("metric"))).isEqualTo(Harness.RATE);
    }
}
