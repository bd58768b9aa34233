#include <doctest/doctest.h>

#include "proto/pgr_format.hh"

TEST_CASE("RFC 3339 timestamps are UTC with microseconds") {
  CHECK(pm::FormatRfc3339(0) == "1970-01-01T00:00:00.000000Z");
  CHECK(pm::FormatRfc3339(1'796'000'000'123'456'789) ==
        "2026-11-30T00:53:20.123456Z");
  CHECK(pm::FormatRfc3339(1'709'251'199'999'999'999) ==
        "2024-02-29T23:59:59.999999Z");
}

TEST_CASE("the header line carries identity, collectors and decoded meta") {
  pm::RecordingHeader h;
  h.host = "db1";
  h.kernel = "6.1.0";
  h.start_ns = 1'000'000'000;
  h.interval_ns = 100'000'000;
  h.num_core = 2;
  h.pid = 42;
  h.collectors_json = R"({"mem":{"fields":["MemTotal"]}})";
  h.meta = {{"sql", "SELECT * FROM t WHERE id=42"}, {"q", "<1>"}};
  CHECK(pm::EncodeHeaderLine(h) ==
        R"({"format":"perfmonger-pgr","version":1,"host":"db1","kernel":"6.1.0",)"
        R"("start_time":"1970-01-01T00:00:01.000000Z","start_ns":1000000000,)"
        R"("interval_ns":100000000,"num_core":2,"pid":42,)"
        R"("collectors":{"mem":{"fields":["MemTotal"]}},)"
        R"("meta":{"sql":"SELECT * FROM t WHERE id=42","q":"\u003c1\u003e"}})"
        "\n");
}

TEST_CASE("an empty meta is still an object") {
  pm::RecordingHeader h;
  std::string line = pm::EncodeHeaderLine(h);
  CHECK(line.find(R"("meta":{}})") != std::string::npos);
  CHECK(line.back() == '\n');
}

TEST_CASE("sample and end lines") {
  std::string line;
  pm::BeginSampleLine(line, 5, 7);
  line.append(R"(,"mem":[1,2])");
  pm::EndLine(line);
  CHECK(line == "{\"t\":5,\"mono\":7,\"mem\":[1,2]}\n");
  CHECK(pm::EncodeEndLine({.t_ns = 9, .mono_ns = 8, .reason = "SIGINT",
                           .samples = 31, .missed_ticks = 1}) ==
        "{\"event\":\"end\",\"t\":9,\"mono\":8,\"reason\":\"SIGINT\","
        "\"samples\":31,\"missed_ticks\":1}\n");
}

TEST_CASE("event lines, with and without a label") {
  CHECK(pm::EncodeEventLine("pause", 5, 6) == "{\"event\":\"pause\",\"t\":5,\"mono\":6}\n");
  CHECK(pm::EncodeEventLine("mark", 5, 6, "q<1>") ==
        "{\"event\":\"mark\",\"t\":5,\"mono\":6,\"label\":\"q\\u003c1\\u003e\"}\n");
}

TEST_CASE("the clock state: in the header, a mark and the trailer; each part only when known") {
  pm::ClockState synced{.disciplined = true, .synced = true, .offset_ns = -1500,
                        .maxerror_us = 2000, .esterror_us = 30, .source = "tsc"};
  std::string object;
  pm::AppendClockJson(object, synced);
  CHECK(object == R"({"synced":true,"offset_ns":-1500,"maxerror_us":2000,"esterror_us":30,)"
                  R"("source":"tsc"})");
  pm::RecordingHeader h;
  h.clock = synced;
  std::string header = pm::EncodeHeaderLine(h);
  CHECK(header.ends_with(R"("meta":{},"clock":)" + object + "}\n"));
  CHECK(pm::EncodeEventLine("mark", 5, 6, "q1", &synced) ==
        R"({"event":"mark","t":5,"mono":6,"label":"q1","clock":)" + object + "}\n");
  pm::ClockState source_only{.source = "hpet"};
  pm::ClockState nothing;
  CHECK(pm::EncodeEndLine({.t_ns = 9, .mono_ns = 8, .reason = "SIGINT", .samples = 1,
                           .clock = &source_only})
            .ends_with(R"("missed_ticks":0,"clock":{"source":"hpet"}})" "\n"));
  CHECK(pm::EncodeEventLine("mark", 5, 6, "q1", &nothing).ends_with(R"("clock":{}})" "\n"));
  pm::ClockState unsynced;
  unsynced.disciplined = true;
  unsynced.maxerror_us = 16'000'000;
  object.clear();
  pm::AppendClockJson(object, unsynced);
  CHECK(object == R"({"synced":false,"offset_ns":0,"maxerror_us":16000000,"esterror_us":0})");
}
