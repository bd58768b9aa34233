// Pauses and marks in the readers, on recordings made through --cmd-fd on
// a fake /proc: `play` never pairs across a pause and, with --events,
// interleaves the events; `summary` averages the active time only and
// reports the paused time; `summary --phases` splits at marks and its
// phases sum back to the whole.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "test/process/fake_proc.hh"

namespace pm::test {
namespace {

// A recording's items, read back from the file.
struct Item {
  std::string event;  // "" for a sample
  std::string label;
  int64_t t = 0;
  int64_t mono = 0;  // what intervals are measured on
};

std::vector<Item> Items(const std::string& path) {
  Recording rec = ReadRecording(path);
  std::vector<Item> items;
  for (size_t i = 1; i < rec.lines.size(); ++i) {
    Json j(rec.lines[i]);
    Item item;
    item.t = j.Int("t");
    item.mono = j.Int("mono");
    if (j.Has("event")) item.event = j.Str("event");
    if (j.Has("label")) item.label = j.Str("label");
    if (item.event != "end") items.push_back(item);
  }
  return items;
}

std::vector<int64_t> SampleTimes(const std::vector<Item>& items) {
  std::vector<int64_t> times;
  for (const Item& i : items)
    if (i.event.empty()) times.push_back(i.t);
  return times;
}

std::vector<int64_t> SampleMonos(const std::vector<Item>& items) {
  std::vector<int64_t> monos;
  for (const Item& i : items)
    if (i.event.empty()) monos.push_back(i.mono);
  return monos;
}

double Sec(int64_t ns) { return static_cast<double>(ns) / 1e9; }

void CheckNear(double printed, double exact, double tolerance) {
  CAPTURE(printed);
  CAPTURE(exact);
  CHECK(std::fabs(printed - exact) <= tolerance + 1e-9 * std::fabs(exact));
}

FakeCounters At(uint64_t writes, uint64_t user, uint64_t idle) {
  FakeCounters c;
  c.cpu_all = {user, 0, 0, idle, 0, 0, 0, 0, 0, 0};
  c.cpu0 = c.cpu1 = {user / 2, 0, 0, idle / 2, 0, 0, 0, 0, 0, 0};
  c.vda = {1000, 0, 8000, 500, writes, 0, writes * 8, writes, 0, 0, 0};
  return c;
}

// The script: samples s0..s7 (s2 and s5 at marks m1, m2; s3 the pause's
// closing sample, s4 the resume's baseline; s7 the stop's). While paused,
// 10000 writes and 100000 idle jiffies happen: they must not count. CPU
// ticks pass between any two samples: none is of zero width.
std::string RecordScript(const TempDir& dir) {
  FakeProc fake(At(0, 0, 0));
  std::string path = dir / "phases.pgr";
  CommandSession s({"record", "--root", fake.root(), "-l", path, "-i", "3600"});
  s.ReadReadyLine();
  auto step = [&](const FakeCounters& c, const std::string& command) {
    fake.Write(c);
    Json reply = s.Command(command);
    CAPTURE(command);
    REQUIRE(bool(reply.root()["ok"]));
  };
  step(At(100, 50, 50), "sample");
  step(At(300, 100, 100), "mark m1");
  step(At(400, 150, 150), "pause");
  step(At(10400, 150, 100150), "resume");
  step(At(10600, 250, 100250), "mark m2");
  step(At(10700, 300, 100300), "sample");
  fake.Write(At(10800, 350, 100350));
  s.CloseStop();
  ExitResult r = s.Wait();
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  return path;
}

std::vector<std::string> Kinds(const std::vector<Item>& items) {
  std::vector<std::string> kinds;
  for (const Item& i : items) kinds.push_back(i.event.empty() ? "s" : i.event);
  return kinds;
}

TEST_SUITE("phases") {
  TEST_CASE("play, play --events, summary and summary --phases over pauses and marks") {
    TempDir dir;
    std::string path = RecordScript(dir);
    std::vector<Item> items = Items(path);
    REQUIRE(Kinds(items) == std::vector<std::string>{"s", "s", "s", "mark", "s", "pause",
                                                     "resume", "s", "s", "mark", "s", "s"});
    std::vector<int64_t> t = SampleTimes(items);  // s0..s7
    REQUIRE(t.size() == 8);
    std::vector<int64_t> m = SampleMonos(items);  // the intervals' clock
    int64_t mark1 = items[3].t, pause = items[5].t, resume = items[6].t, mark2 = items[9].t;
    CHECK(mark1 == t[2]);
    CHECK(mark2 == t[5]);

    SUBCASE("play: no line spans the pause") {
      ExitResult r = Run({"play", path});
      REQUIRE(r.code == 0);
      std::vector<std::string> lines = SplitLines(r.out);
      REQUIRE(lines.size() == 6);
      std::vector<int> ends = {1, 2, 3, 5, 6, 7};  // never s4: s3->s4 spans it
      for (size_t i = 0; i < lines.size(); ++i)
        CheckNear(double(Json(lines[i]).root()["time"]), Sec(t[ends[i]]), 0.0005);
      CHECK(r.err.find("# mark: m1 at ") != std::string::npos);
      CHECK(r.err.find("# mark: m2 at ") != std::string::npos);
    }

    SUBCASE("play --events: the events in file order, marks off stderr") {
      ExitResult r = Run({"play", "--events", path});
      REQUIRE(r.code == 0);
      CHECK(r.err.find("# mark") == std::string::npos);
      std::vector<std::string> lines = SplitLines(r.out);
      REQUIRE(lines.size() == 12);
      std::vector<std::string> kinds;
      for (const std::string& line : lines) {
        Json j(line);
        kinds.push_back(j.Has("event") ? j.Str("event") : "rates");
      }
      // The start and the end come with the clock's state they carry.
      CHECK(kinds == std::vector<std::string>{"start", "rates", "rates", "mark", "rates",
                                              "pause", "resume", "rates", "mark", "rates",
                                              "rates", "end"});
      Json start(lines[0]), m1(lines[3]), p(lines[5]), r2(lines[6]), m2(lines[8]),
          end(lines[11]);
      CHECK(start.Keys() == std::vector<std::string>{"event", "time", "elapsed_time", "clock"});
      CHECK(m1.Keys() ==
            std::vector<std::string>{"event", "label", "time", "elapsed_time", "clock"});
      CHECK(p.Keys() == std::vector<std::string>{"event", "time", "elapsed_time"});
      CHECK(end.Keys() ==
            std::vector<std::string>{"event", "reason", "time", "elapsed_time", "clock"});
      CHECK(end.Str("reason") == "stop-fd");
      CheckNear(double(start.root()["elapsed_time"]), 0, 0.0005);
      CHECK(m1.Str("label") == "m1");
      CHECK(m2.Str("label") == "m2");
      std::vector<std::pair<Json*, int64_t>> at = {{&m1, mark1}, {&p, pause},
                                                   {&r2, resume}, {&m2, mark2}};
      for (auto [json, ns] : at) {
        CheckNear(double(json->root()["time"]), Sec(ns), 0.0005);
        CheckNear(double(json->root()["elapsed_time"]), Sec(ns - t[0]), 0.0005);
      }
    }

    // Active: s0..s3 and s4..s7; 400 + 400 writes, user 150 + 200 of
    // 700 jiffies (2 cores: 100 %).
    double active = Sec(m[3] - m[0]) + Sec(m[7] - m[4]);
    double paused = Sec(t[4] - t[3]);

    SUBCASE("summary --json: active time only, paused time reported") {
      ExitResult r = Run({"summary", "--json", path});
      REQUIRE(r.code == 0);
      Json j(r.out);
      CHECK(j.Keys().at(0) == "exectime");
      CHECK(j.Keys().at(1) == "paused_time");
      CheckNear(double(j.root()["exectime"]), active, 0.0005);
      CheckNear(double(j.root()["paused_time"]), paused, 0.0005);
      CheckNear(double(j.root()["disk"]["vda"]["wiops"]), 800 / active, 0.005);
      CheckNear(double(j.root()["cpu"]["all"]["usr"]), 100.0, 0.005);
    }

    SUBCASE("summary text: Duration is the active time, then Paused") {
      ExitResult r = Run({"summary", "--no-pager", path});
      REQUIRE(r.code == 0);
      size_t d = r.out.find("\nDuration: ");
      size_t p = r.out.find("\nPaused: ");
      REQUIRE(d != std::string::npos);
      REQUIRE(p != std::string::npos);
      CHECK(r.out.find('\n', d + 1) == p);
      CheckNear(std::stod(r.out.substr(d + 11)), active, 0.0005);
      CheckNear(std::stod(r.out.substr(p + 9)), paused, 0.0005);
    }

    SUBCASE("summary --phases --json: one object per phase, summing back") {
      ExitResult whole = Run({"summary", "--json", path});
      ExitResult r = Run({"summary", "--phases", "--json", path});
      REQUIRE(r.code == 0);
      Json all(whole.out), j(r.out);
      const std::vector<JsonValue>& phases = j.root().array();
      REQUIRE(phases.size() == 3);
      std::vector<std::string> labels = {"start", "m1", "m2"};
      std::vector<double> durations = {Sec(m[2] - m[0]), Sec(m[3] - m[2]) + Sec(m[5] - m[4]),
                                       Sec(m[7] - m[5])};
      std::vector<double> writes = {300, 100 + 200, 200};
      double sum_writes = 0, sum_exec = 0, sum_paused = 0;
      for (size_t i = 0; i < 3; ++i) {
        auto phase = phases.at(i);
        CAPTURE(i);
        CHECK(std::string_view(phase["phase"]) == labels[i]);
        double exec = double(phase["exectime"]), wiops = double(phase["disk"]["vda"]["wiops"]);
        CheckNear(exec, durations[i], 0.0005);
        CheckNear(wiops, writes[i] / durations[i], 0.005);
        CHECK(phase["paused_time"].exists() == (i == 1));
        sum_writes += wiops * durations[i];
        sum_exec += exec;
        if (i == 1) sum_paused += double(phase["paused_time"]);
      }
      double whole_wiops = double(all.root()["disk"]["vda"]["wiops"]);
      CheckNear(sum_writes, whole_wiops * active, 0.005 * active * 2);
      CheckNear(sum_exec, double(all.root()["exectime"]), 0.002);
      CheckNear(sum_paused, double(all.root()["paused_time"]), 0.001);
    }

    SUBCASE("summary --phases text: one titled block per phase") {
      ExitResult r = Run({"summary", "--phases", "--no-pager", path});
      REQUIRE(r.code == 0);
      std::string title = "== performance summary of '" + path + "', phase '";
      for (const char* label : {"start", "m1", "m2"})
        CHECK(r.out.find(title + label + "' ==\n") != std::string::npos);
      size_t titles = 0;
      for (size_t at = r.out.find("== performance"); at != std::string::npos;
           at = r.out.find("== performance", at + 1))
        ++titles;
      CHECK(titles == 3);
    }
  }

  // Started paused, resumed after a while, stopped while paused: every time
  // in `play --events` from one origin (none goes backwards), the pause at
  // the start counted up to the first resume and the one at the end up to
  // the end trailer, in summary and its phases.
  TEST_CASE("start paused, stop paused: one time origin, the last pause counted") {
    TempDir dir;
    FakeProc fake(At(0, 0, 0));
    std::string path = dir / "paused.pgr";
    CommandSession s({"record", "--root", fake.root(), "-l", path, "-i", "3600",
                      "--start-paused"});
    s.ReadReadyLine();
    // Deadline waits (the file must stay quiet while paused), so the
    // paused stretches are long enough to show in %.3f.
    CHECK(QuietUntil(path, After(std::chrono::milliseconds(30))));
    for (auto [command, writes] : std::vector<std::pair<const char*, uint64_t>>{
             {"resume", 0}, {"sample", 100}, {"mark tail", 200}, {"sample", 300},
             {"pause", 400}}) {
      fake.Write(At(writes, writes, writes));
      REQUIRE(bool(s.Command(command).root()["ok"]));
    }
    CHECK(QuietUntil(path, After(std::chrono::milliseconds(30))));
    s.CloseStop();
    REQUIRE(s.Wait().code == 0);
    Recording rec = ReadRecording(path);
    Json last(rec.lines.back());
    REQUIRE(last.Str("event") == "end");
    int64_t end = last.Int("t");
    std::vector<Item> items = Items(path);
    REQUIRE(items.size() >= 2);
    REQUIRE(items[0].event == "pause");  // right after the header
    REQUIRE(items[1].event == "resume");
    double head_pause = Sec(items[1].t - items[0].t);
    REQUIRE(head_pause >= 0.03);
    REQUIRE(items.back().event == "pause");
    double tail_pause = Sec(end - items.back().t);
    REQUIRE(tail_pause >= 0.03);

    ExitResult r = Run({"play", "--events", path});
    REQUIRE(r.code == 0);
    std::vector<std::string> lines = SplitLines(r.out);
    REQUIRE(lines.size() >= 4);
    CHECK(Json(lines[0]).Str("event") == "start");
    CHECK(Json(lines[1]).Str("event") == "pause");
    double origin = 0, previous = -1;
    for (size_t i = 0; i < lines.size(); ++i) {
      CAPTURE(lines[i]);
      Json j(lines[i]);
      double time = double(j.root()["time"]), elapsed = double(j.root()["elapsed_time"]);
      if (i == 0) origin = time - elapsed;
      CHECK(std::fabs(time - elapsed - origin) <= 0.0011);  // one origin for all
      CHECK(elapsed >= previous);
      CHECK(elapsed >= 0);
      previous = elapsed;
    }

    Json whole(Run({"summary", "--json", path}).out);
    CheckNear(double(whole.root()["paused_time"]), head_pause + tail_pause, 0.001);
    ExitResult text = Run({"summary", "--no-pager", path});
    size_t p = text.out.find("\nPaused: ");
    REQUIRE(p != std::string::npos);
    CheckNear(std::stod(text.out.substr(p + 9)), head_pause + tail_pause, 0.001);
    Json phases(Run({"summary", "--phases", "--json", path}).out);
    const std::vector<JsonValue>& list = phases.root().array();
    REQUIRE(list.size() == 2);
    CheckNear(double(list.at(0)["paused_time"]), head_pause, 0.0005);
    CheckNear(double(list.at(1)["paused_time"]), tail_pause, 0.0005);
  }

  TEST_CASE("a mark while paused splits the paused time; no pause, no paused time") {
    TempDir dir;
    FakeProc fake(At(0, 0, 0));
    std::string path = dir / "idle.pgr";
    CommandSession s({"record", "--root", fake.root(), "-l", path, "-i", "3600"});
    s.ReadReadyLine();
    std::vector<std::pair<const char*, uint64_t>> script = {
        {"sample", 100}, {"pause", 200}, {"mark idle", 250}, {"resume", 5000},
        {"sample", 5100}};
    for (auto [command, writes] : script) {
      fake.Write(At(writes, writes, writes));  // CPU ticks pass: no zero width
      REQUIRE(bool(s.Command(command).root()["ok"]));
    }
    fake.Write(At(5200, 5200, 5200));
    s.CloseStop();
    REQUIRE(s.Wait().code == 0);

    Json whole(Run({"summary", "--json", path}).out);
    Json j(Run({"summary", "--phases", "--json", path}).out);
    const std::vector<JsonValue>& phases = j.root().array();
    REQUIRE(phases.size() == 2);
    CHECK(std::string_view(phases.at(1)["phase"]) == "idle");
    double a = double(phases.at(0)["paused_time"]), b = double(phases.at(1)["paused_time"]);
    CheckNear(a + b, double(whole.root()["paused_time"]), 0.001);
    std::vector<int64_t> t = SampleTimes(Items(path));  // s0 s1 closing baseline s4 stop
    REQUIRE(t.size() == 6);
    std::vector<int64_t> m = SampleMonos(Items(path));
    double active = Sec(m[2] - m[0]) + Sec(m[5] - m[3]);
    CheckNear(double(whole.root()["disk"]["vda"]["wiops"]), 400 / active, 0.005);
    CheckNear(a + b, Sec(t[3] - t[2]), 0.001);

    TempDir plain_dir;
    std::string plain = plain_dir / "plain.pgr";
    RecordFake(fake, plain, {At(0, 0, 0), At(100, 10, 10)});
    ExitResult text = Run({"summary", "--no-pager", plain});
    CHECK(text.out.find("Paused") == std::string::npos);
    CHECK(Run({"summary", "--json", plain}).out.find("paused_time") == std::string::npos);
  }
}

}  // namespace
}  // namespace pm::test
