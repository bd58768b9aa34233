// `play` and `summary` at the edges: recordings cut short, corrupt
// bytes, too little to work with, a live recording, a closed stdout, the
// pager on a terminal.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/io.hh"
#include "test/process/fake_proc.hh"
#include "test/process/recording.hh"

namespace pm::test {
namespace {

std::vector<FakeCounters> Steps(uint64_t n) {
  std::vector<FakeCounters> steps;
  for (uint64_t k = 0; k < n; ++k) steps.push_back(CountersAt(k));
  return steps;
}

// The cuts of `bytes` where `play` has something different to show: none,
// one byte, the whole file but its last byte, and for each line the first
// prefix that decodes it and the byte before. (Every cut is read in-process
// by test/playback/test_recording_reader.cc; here the executable's exit
// code, output and warning are checked on the cuts that tell them apart.)
// A prefix never holds fewer lines than a shorter one, so each line's
// first prefix is found by bisection: a few decodes per line, not one per
// byte (quadratic, and slow under ASan).
std::vector<size_t> TellingCuts(const std::string& bytes) {
  auto lines_in = [&bytes](size_t n) { return DecodeRecording(bytes.substr(0, n)).lines.size(); };
  std::set<size_t> cuts = {0, 1, bytes.size() - 1};
  const size_t last = bytes.size() - 1;  // the cuts short of the whole file
  const size_t most = lines_in(last);
  size_t from = 1;
  for (size_t k = 1; k <= most; ++k) {
    size_t lo = from, hi = last;  // the first n in [lo, hi] with k lines
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (lines_in(mid) >= k) hi = mid;
      else lo = mid + 1;
    }
    cuts.insert({lo - 1, lo});
    from = lo;
  }
  return {cuts.begin(), cuts.end()};
}

// Sample lines whole in the first `cut` bytes: `play` owes one line per
// pair.
size_t PairsIn(const std::string& bytes, size_t cut) {
  size_t samples = CountSampleLines(DecodeRecording(bytes.substr(0, cut)));
  return samples > 0 ? samples - 1 : 0;
}

// `play` of the telling cuts of `path`, a few started at once: exit 0, a
// prefix of the full output with every complete pair, and a warning for
// every cut short of the whole file (the end trailer is its last line).
void CheckCuts(const std::string& path) {
  std::string bytes = ReadFileBytes(path);
  ExitResult full = Run({"play", path});
  REQUIRE(full.code == 0);
  REQUIRE(SplitLines(full.out).size() >= 3);
  std::vector<size_t> cuts = TellingCuts(bytes);
  // Each wait has the default deadline: a batch is what two busy cores
  // run well within it, even under ASan.
  constexpr size_t kBatch = 4;
  std::vector<std::unique_ptr<PendingRun>> runs;
  for (size_t i = 0; i < cuts.size(); ++i) {
    for (size_t j = runs.size(); j < std::min(cuts.size(), i + kBatch); ++j)
      runs.push_back(std::make_unique<PendingRun>(std::vector<std::string>{"play"},
                                                  bytes.substr(0, cuts[j])));
    size_t cut = cuts[i];
    ExitResult r = runs[i]->child.Wait();
    CAPTURE(cut);
    CAPTURE(r.err);
    bool warned = r.err.find("warning: stdin: recording truncated after") == 0 ||
                  r.err.find("warning: stdin: not closed cleanly: no end trailer") == 0 ||
                  (cut == 0 && r.err.find("is empty") != std::string::npos);
    CHECK(r.code == 0);
    CHECK(r.signal == 0);
    CHECK(full.out.starts_with(r.out));
    CHECK(SplitLines(r.out).size() == PairsIn(bytes, cut));
    CHECK((cut == bytes.size() || warned));
    CHECK(r.err.find("error") == std::string::npos);
  }
  CHECK(cuts.size() >= 2 * SplitLines(full.out).size());
}

// A pseudo-terminal in raw mode (no \n -> \r\n): the child's stdout.
struct Pty {
  Pty() {
    master = UniqueFd::Adopt(posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC));
    REQUIRE(master);
    REQUIRE(grantpt(master.Get()) == 0);
    REQUIRE(unlockpt(master.Get()) == 0);
    slave = OpenAt(AT_FDCWD, ptsname(master.Get()), O_RDWR | O_NOCTTY);
    struct termios t;
    REQUIRE(tcgetattr(slave.Get(), &t) == 0);
    cfmakeraw(&t);
    REQUIRE(tcsetattr(slave.Get(), TCSANOW, &t) == 0);
  }
  // What the child wrote, once every slave fd is closed (EIO).
  std::string Drain() {
    std::string out;
    char chunk[4096];
    for (;;) {
      PollUntil(master.Get(), POLLIN, DefaultDeadline(), "the pty");
      ssize_t n = ::read(master.Get(), chunk, sizeof chunk);
      if (n <= 0) return out;
      out.append(chunk, static_cast<size_t>(n));
    }
  }
  UniqueFd master, slave;
};

// `perfmonger ARGS` with stdout on a terminal: `out` is what reached it.
ExitResult RunWithTerminal(std::vector<std::string> args, std::vector<std::string> env = {}) {
  Pty pty;
  SpawnOptions options;
  options.args = std::move(args);
  options.env = std::move(env);
  options.fds.emplace_back(1, std::move(pty.slave));
  ExitResult r = Child(std::move(options)).Wait();
  r.out = pty.Drain();
  return r;
}

// The same, exit 0 checked; returns what reached the terminal.
std::string RunOnTerminal(std::vector<std::string> args, std::vector<std::string> env = {}) {
  ExitResult r = RunWithTerminal(std::move(args), std::move(env));
  CAPTURE(r.err);
  CHECK(r.code == 0);
  return r.out;
}

bool Exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

TEST_SUITE("readers") {
  TEST_CASE("a plain, a gzip and a zstd recording cut anywhere still play, warned") {
    FakeProc fake(CountersAt(0));
    TempDir dir;
    for (const char* name : {"cut.pgr", "cut.pgr.gz", "cut.pgr.zst"}) {
      CAPTURE(name);
      RecordFake(fake, dir / name, Steps(6));
      CheckCuts(dir / name);
    }
  }

  TEST_CASE("corrupt bytes: exit 2, one line naming the file and the byte") {
    FakeProc fake(CountersAt(0));
    TempDir dir;
    // Version 1, whose corrupt line ends the read (v2 skips to a keyframe:
    // test_format_v2.cc).
    RecordFake(fake, dir / "r.pgr", Steps(3), {"--format-version", "1"});
    RecordFake(fake, dir / "r.pgr.gz", Steps(3));
    RecordFake(fake, dir / "r.pgr.zst", Steps(3));
    std::vector<std::string> lines = SplitLines(ReadFileBytes(dir / "r.pgr"));
    std::string header = lines[0] + "\n";
    std::string gz = ReadFileBytes(dir / "r.pgr.gz");
    gz[2] = 7;  // compression method: not deflate
    std::string zst = ReadFileBytes(dir / "r.pgr.zst");
    zst[4] |= 0x08;  // frame header descriptor: the reserved bit
    std::string gob = ReadFileBytes(LegacyFile("busy100.pgr"));
    gob[3] = '\xff';  // inside the first type definition
    struct Case {
      std::string name;
      std::string bytes;
    };
    for (const Case& c : std::vector<Case>{
             {"legacy-type", gob},
             {"json-not-header", "{\"format\":\"other\",\"version\":1}\n"},
             {"gzip-method", gz},
             {"zstd-reserved", zst},
         }) {
      CAPTURE(c.name);
      std::string path = dir / c.name;
      WriteFile(path, c.bytes);
      for (const char* command : {"play", "summary"}) {
        ExitResult r = Run({command, path});
        CAPTURE(r.err);
        CHECK(r.code == 2);
        CHECK(SplitLines(r.err).size() == 1);
        CHECK(r.err.starts_with(std::string("perfmonger ") + command + ": error: " +
                                path + ": "));
        CHECK(r.err.find("byte") != std::string::npos);
      }
    }
    // A damaged line is skipped, not fatal: a warning naming the line and
    // the byte, what could be read is used, and the exit status says 2.
    for (const Case& c : std::vector<Case>{
             {"bad-sample", header + "{\"t\":12,oops}\n"},
             {"binary-line", header + lines[1] + "\n\x01\x02\x03\n"},
         }) {
      CAPTURE(c.name);
      std::string path = dir / c.name;
      WriteFile(path, c.bytes);
      for (const char* command : {"play", "summary"}) {
        ExitResult r = Run({command, path});
        CAPTURE(r.err);
        CHECK(r.code == 2);
        CHECK(r.err.starts_with("warning: " + path + ": line "));
        CHECK(r.err.find(" lost (pgr line ") != std::string::npos);
        CHECK(r.err.find("error") == std::string::npos);
      }
    }
  }

  // Text, random bytes, and a file another process truncated while its
  // recorder kept writing at its offset (a hole of zeros where the header
  // was, headerless lines after it): not "legacy recording: ..." but what
  // they are.
  TEST_CASE("an input that is no recording says so: exit 2, one line") {
    TempDir dir;
    FakeProc fake(CountersAt(0));
    // What a writer that went on at its offset leaves (the recorder now
    // stops at the cut instead): zeros where the header and a sample were.
    RecordFake(fake, dir / "r.pgr", Steps(3));
    std::vector<std::string> lines = SplitLines(ReadFileBytes(dir / "r.pgr"));
    size_t written = lines[0].size() + lines[1].size() + 2;
    std::string holed = dir / "holed.pgr";
    WriteFile(holed, std::string(written, '\0') + lines[2] + "\n" + lines[3] + "\n");
    std::string random;  // fixed pseudo-random bytes: the same every run
    for (uint32_t x = 12345; random.size() < 256;) {
      x = x * 1103515245 + 12345;
      random.push_back(static_cast<char>(x >> 24));
    }
    WriteFile(dir / "random", random);
    WriteFile(dir / "zeros", std::string(4096, '\0'));
    const std::pair<std::string, std::string> cases[] = {
        {"/etc/passwd", "not a PerfMonger recording: it starts with \"root:"},
        {dir / "random", "not a PerfMonger recording: it starts with \"\\x"},
        {dir / "zeros", "not a PerfMonger recording: all its 4096 bytes are zeros"},
        {holed, "another process truncated it while it was being written: bytes 0 to " +
                    std::to_string(written - 1) + " are zeros, and the header went with "
                    "them; the data from byte " + std::to_string(written) + " on cannot be "
                    "read without it"},
    };
    for (const auto& [path, says] : cases) {
      for (const char* command : {"play", "summary"}) {
        ExitResult r = Run({command, path});
        CAPTURE(r.err);
        CHECK(r.code == 2);
        CHECK(SplitLines(r.err).size() == 1);
        CHECK(r.err.starts_with(std::string("perfmonger ") + command + ": error: " +
                                path + ": " + says));
      }
    }
  }

  // The hole is data lost (damage, as a corrupt line is): exit 2, once
  // what follows it is read.
  TEST_CASE("a recording after a hole of zeros: read from there, with one warning, exit 2") {
    FakeProc fake(CountersAt(0));
    TempDir dir;
    RecordFake(fake, dir / "r.pgr.gz", Steps(4));
    ExitResult whole = Run({"play", dir / "r.pgr.gz"});
    REQUIRE(whole.code == 0);
    std::string holed = dir / "holed.pgr.gz";
    WriteFile(holed, std::string(70000, '\0') + ReadFileBytes(dir / "r.pgr.gz"));
    for (const char* command : {"play", "summary"}) {
      ExitResult r = Run({command, holed});
      CAPTURE(r.err);
      CHECK(r.code == 2);
      // Then the note of the stop's sample, left out (RecordFake).
      CHECK(WithoutClockWarnings(r.err).starts_with(
          "warning: " + holed + ": another process truncated it while it was being written: "
          "bytes 0 to 69999 are zeros; read the recording from byte 70000 on\n"));
      if (std::string(command) == "play") CHECK(r.out == whole.out);
    }
  }

  TEST_CASE("empty, header-only, single-sample: a message, exit 0, no records") {
    FakeProc fake(CountersAt(0));
    TempDir dir;
    RecordFake(fake, dir / "r.pgr", Steps(2));
    std::vector<std::string> lines = SplitLines(ReadFileBytes(dir / "r.pgr"));
    struct Case {
      std::string name;
      std::string bytes;
      const char* says;
    };
    for (const Case& c : std::vector<Case>{
             {"empty", "", "is empty"},
             {"header", lines[0] + "\n", "has no samples"},
             {"single", lines[0] + "\n" + lines[1] + "\n", "has a single sample"},
         }) {
      CAPTURE(c.name);
      std::string path = dir / c.name;
      WriteFile(path, c.bytes);
      ExitResult play = Run({"play", path});
      CHECK(play.code == 0);
      CHECK(play.out.empty());
      CHECK(play.err.find(c.says) != std::string::npos);
      ExitResult summary = Run({"summary", path});
      CHECK(summary.code == 0);
      CHECK(summary.err.find(c.says) != std::string::npos);
      bool single = c.name == "single";
      CHECK(summary.out.find("Duration: 0.000 sec") != (single ? std::string::npos : 0));
      CHECK(summary.out.empty() != single);
      // Scripts parse --json: always one valid object, the reason on stderr.
      ExitResult json = Run({"summary", "--json", path});
      CHECK(json.code == 0);
      CHECK(json.err.find(c.says) != std::string::npos);
      CAPTURE(json.out);
      REQUIRE(json.out.ends_with("}\n"));
      CHECK(Json(json.out).Keys().at(0) == "exectime");
      CHECK(double(Json(json.out).root()["exectime"]) == 0.0);
      ExitResult phases = Run({"summary", "--json", "--phases", path});
      CHECK(phases.code == 0);
      CHECK(Json(phases.out).root().type() == JsonValue::Type::kArray);
    }
  }

  // Rewrites key `key` of sample line `line` to `value`.
  void Restamp(std::string& line, const std::string& key, int64_t value) {
    std::string from = "\"" + key + "\":" + std::to_string(Json(line).Int(key));
    size_t at = line.find(from);
    REQUIRE(at != std::string::npos);
    line.replace(at, from.size(), "\"" + key + "\":" + std::to_string(value));
  }

  TEST_CASE("a pair whose monotonic interval is not positive is skipped with a warning") {
    FakeProc fake(CountersAt(0));
    TempDir dir;
    RecordFake(fake, dir / "r.pgr", Steps(3), {"--format-version", "1"});  // raw lines edited
    std::vector<std::string> lines = SplitLines(ReadFileBytes(dir / "r.pgr"));
    REQUIRE(lines.size() >= 4);
    // The second sample stamped with the first one's instants.
    Restamp(lines[2], "t", Json(lines[1]).Int("t"));
    Restamp(lines[2], "mono", Json(lines[1]).Int("mono"));
    std::string path = dir / "same-time.pgr";
    WriteFile(path, lines[0] + "\n" + lines[1] + "\n" + lines[2] + "\n" + lines[3] + "\n");
    ExitResult r = Run({"play", path});
    CHECK(r.code == 0);
    CHECK(SplitLines(r.out).size() == 1);  // the second pair only
    CHECK(r.err.find("not later than the one before") != std::string::npos);
  }

  TEST_CASE("a step of the wall clock moves no rate and no elapsed time; it is noted") {
    FakeProc fake(CountersAt(0));
    TempDir dir;
    RecordFake(fake, dir / "r.pgr", Steps(4), {"--format-version", "1"});
    std::vector<std::string> lines = SplitLines(ReadFileBytes(dir / "r.pgr"));
    REQUIRE(lines.size() >= 5);
    ExitResult before = Run({"play", dir / "r.pgr"});
    // From the third sample on, the wall clock reads 5 s earlier.
    for (size_t i = 3; i < lines.size(); ++i)
      if (lines[i].starts_with("{\"t\":")) Restamp(lines[i], "t", Json(lines[i]).Int("t") - 5'000'000'000);
    std::string path = dir / "stepped.pgr", text;
    for (const std::string& line : lines) text += line + "\n";
    WriteFile(path, text);
    ExitResult r = Run({"play", path});
    CHECK(r.code == 0);
    CHECK(r.err.find("the wall clock stepped by -5.0") != std::string::npos);
    std::vector<std::string> got = SplitLines(r.out), want = SplitLines(before.out);
    REQUIRE(got.size() == want.size());
    double last = -1;
    for (size_t i = 0; i < got.size(); ++i) {
      Json g(got[i]), w(want[i]);
      CHECK(double(g.root()["elapsed_time"]) == double(w.root()["elapsed_time"]));
      CHECK(double(g.root()["elapsed_time"]) >= last);
      last = double(g.root()["elapsed_time"]);
      CHECK(double(g.root()["disk"]["vda"]["wiops"]) == double(w.root()["disk"]["vda"]["wiops"]));
    }
  }

  // A live recorder holds its output's write lock: the readers say the
  // file is still being recorded (a note, not a warning: nothing is wrong)
  // instead of calling it truncated or not closed cleanly.
  TEST_CASE("play and summary of a live recording read what is flushed so far") {
    FakeProc fake(CountersAt(0));
    TempDir dir;
    for (const char* name : {"live.pgr.gz", "live.pgr"}) {
      CAPTURE(name);
      std::string path = dir / name;
      fake.Write(CountersAt(0));  // each recording's samples a tick apart
      CommandSession s({"record", "--root", fake.root(), "-l", path, "-i", "3600"});
      s.ReadReadyLine();
      fake.Write(CountersAt(1));
      REQUIRE(bool(s.Command("sample").root()["ok"]));
      std::string note = "note: " + path + ": still being recorded (pid " +
                         std::to_string(s.child().pid()) +
                         "): read up to its last flushed sample, 2 samples\n";
      ExitResult live = Run({"play", path});
      CHECK(live.code == 0);
      CHECK(SplitLines(live.out).size() == 1);
      CHECK(live.err == note);
      ExitResult summary = Run({"summary", path});
      CHECK(summary.code == 0);
      CHECK(WithoutClockWarnings(summary.err) == note);
      fake.Write(CountersAt(2));  // the stop's sample a tick later too
      s.CloseStop();
      REQUIRE(s.Wait().code == 0);
      ExitResult done = Run({"play", path});
      CHECK(SplitLines(done.out).size() == 2);
      CHECK(done.out.starts_with(live.out));
      CHECK(done.err.empty());
    }
  }

  TEST_CASE("a reader that goes away ends play quietly") {
    Pipe pipe = MakePipe();
    pipe.read_end.Reset();
    SpawnOptions options;
    options.args = {"play", LegacyFile("busy100.pgr")};
    options.fds.emplace_back(1, std::move(pipe.write_end));
    ExitResult r = Child(std::move(options)).Wait();
    CHECK(r.signal == 0);
    CHECK(r.code == 0);
    CHECK(r.err.empty());
  }

  TEST_CASE("the pager runs only on a terminal, and only when it can") {
    TempDir dir;
    std::string file = LegacyFile("busy100.pgr");
    std::string text = Run({"summary", file}).out;
    REQUIRE(!text.empty());

    CHECK(RunOnTerminal({"summary", "-p", "cat > " + dir / "a", file}).empty());
    CHECK(ReadFileBytes(dir / "a") == text);
    CHECK(RunOnTerminal({"summary", file}, {"PAGER=cat > " + dir / "b"}).empty());
    CHECK(ReadFileBytes(dir / "b") == text);
    CHECK(RunOnTerminal({"summary", "--no-pager", "-p", "cat > " + dir / "c", file}) == text);
    CHECK_FALSE(Exists(dir / "c"));
    CHECK(RunOnTerminal({"summary", "-p", dir / "no-such-pager", file}) == text);
    CHECK(RunOnTerminal({"summary", "--json", "-p", "cat > " + dir / "d", file}) ==
          Run({"summary", "--json", file}).out);
    CHECK_FALSE(Exists(dir / "d"));
    ExitResult piped = Run({"summary", "-p", "cat > " + dir / "e", file});
    CHECK(piped.out == text);
    CHECK_FALSE(Exists(dir / "e"));
  }

  // A pager that fails may have shown nothing: the text is printed
  // directly, with one note saying why. One that reads part and exits 0
  // (the user quit) is left alone.
  TEST_CASE("a failing pager: the text printed directly, and a note") {
    TempDir dir;
    std::string file = LegacyFile("busy100.pgr");
    std::string text = Run({"summary", file}).out;
    REQUIRE(!text.empty());
    const std::pair<std::string, std::string> failing[] = {
        {"false", "failed (exit status 1)"},
        {"cat > /dev/null; exit 3", "failed (exit status 3)"},
        {"kill -TERM $$", "was killed by signal 15"},
        {dir / "no-such-pager", "could not be started"},
    };
    for (const auto& failure : failing) {  // no structured binding: CAPTURE takes it in a lambda
      const std::string& pager = failure.first;
      const std::string& why = failure.second;
      CAPTURE(pager);
      ExitResult r = RunWithTerminal({"summary", "-p", pager, file});
      CAPTURE(r.err);
      CHECK(r.code == 0);
      CHECK(r.out == text);
      CHECK(r.err.ends_with("perfmonger summary: the pager '" + pager + "' " + why +
                            ": printed directly\n"));
    }
    ExitResult quit = RunWithTerminal({"summary", "-p", "head -c 10 > /dev/null", file});
    CHECK(quit.code == 0);
    CHECK(quit.out.empty());
    CHECK(quit.err.empty());
  }
}

}  // namespace
}  // namespace pm::test
