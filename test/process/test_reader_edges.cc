// `play` and `summary` at the edges: recordings cut short, corrupt
// bytes, too little to work with, a live recording, a closed stdout, the
// pager on a terminal.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <poll.h>
#include <termios.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/io.hh"
#include "test/process/fake_proc.hh"

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
std::vector<size_t> TellingCuts(const std::string& bytes) {
  std::set<size_t> cuts = {0, 1, bytes.size() - 1};
  size_t lines = 0;
  for (size_t n = 1; n < bytes.size(); ++n) {
    size_t now = DecodeRecording(bytes.substr(0, n)).lines.size();
    if (now > lines) cuts.insert({n - 1, n});
    lines = now;
  }
  return {cuts.begin(), cuts.end()};
}

// Sample lines whole in the first `cut` bytes: `play` owes one line per pair.
size_t PairsIn(const std::string& bytes, size_t cut) {
  size_t samples = CountSampleLines(DecodeRecording(bytes.substr(0, cut)));
  return samples > 0 ? samples - 1 : 0;
}

// `play` of the telling cuts of `path`, all started at once: exit 0, a
// prefix of the full output with every complete pair, the warning when
// lines were lost.
void CheckCuts(const std::string& path) {
  std::string bytes = ReadFileBytes(path);
  ExitResult full = Run({"play", path});
  REQUIRE(full.code == 0);
  REQUIRE(SplitLines(full.out).size() >= 3);
  std::vector<size_t> cuts = TellingCuts(bytes);
  std::vector<std::unique_ptr<PendingRun>> runs;
  for (size_t cut : cuts)
    runs.push_back(std::make_unique<PendingRun>(std::vector<std::string>{"play"},
                                                bytes.substr(0, cut)));
  for (size_t i = 0; i < cuts.size(); ++i) {
    size_t cut = cuts[i];
    ExitResult r = runs[i]->child.Wait();
    CAPTURE(cut);
    CAPTURE(r.err);
    bool lost = r.out.size() < full.out.size();
    bool warned = r.err.find("recording truncated after") != std::string::npos ||
                  (cut == 0 && r.err.find("is empty") != std::string::npos);
    CHECK(r.code == 0);
    CHECK(r.signal == 0);
    CHECK(full.out.starts_with(r.out));
    CHECK(SplitLines(r.out).size() == PairsIn(bytes, cut));
    CHECK((!lost || warned));
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

// `perfmonger ARGS` with stdout on a terminal; returns what reached it.
std::string RunOnTerminal(std::vector<std::string> args, std::vector<std::string> env = {}) {
  Pty pty;
  SpawnOptions options;
  options.args = std::move(args);
  options.env = std::move(env);
  options.fds.emplace_back(1, std::move(pty.slave));
  ExitResult r = Child(std::move(options)).Wait();
  CAPTURE(r.err);
  CHECK(r.code == 0);
  return pty.Drain();
}

bool Exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

TEST_SUITE("readers") {
  TEST_CASE("a gzip and a zstd recording cut anywhere still play") {
    FakeProc fake(CountersAt(0));
    TempDir dir;
    for (const char* name : {"cut.pgr.gz", "cut.pgr.zst"}) {
      CAPTURE(name);
      RecordFake(fake, dir / name, Steps(6));
      CheckCuts(dir / name);
    }
  }

  TEST_CASE("corrupt bytes: exit 2, one line naming the file and the byte") {
    FakeProc fake(CountersAt(0));
    TempDir dir;
    RecordFake(fake, dir / "r.pgr", Steps(3));
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
    std::string text;  // long enough not to read as a gob message cut short
    for (int i = 0; i < 8; ++i) text += "this is not a recording at all. ";
    struct Case {
      std::string name;
      std::string bytes;
    };
    for (const Case& c : std::vector<Case>{
             {"text", text},
             {"legacy-type", gob},
             {"json-not-header", "{\"format\":\"other\",\"version\":1}\n"},
             {"bad-sample", header + "{\"t\":12,oops}\n"},
             {"binary-line", header + lines[1] + "\n\x01\x02\x03\n"},
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

  TEST_CASE("a pair whose interval is not positive is skipped with a warning") {
    FakeProc fake(CountersAt(0));
    TempDir dir;
    RecordFake(fake, dir / "r.pgr", Steps(3));
    std::vector<std::string> lines = SplitLines(ReadFileBytes(dir / "r.pgr"));
    REQUIRE(lines.size() >= 4);
    // The second sample stamped with the first one's time.
    std::string t1 = std::to_string(Json(lines[1]).Int("t"));
    std::string t2 = std::to_string(Json(lines[2]).Int("t"));
    REQUIRE(lines[2].starts_with("{\"t\":" + t2));
    lines[2].replace(5, t2.size(), t1);
    std::string path = dir / "same-time.pgr";
    WriteFile(path, lines[0] + "\n" + lines[1] + "\n" + lines[2] + "\n" + lines[3] + "\n");
    ExitResult r = Run({"play", path});
    CHECK(r.code == 0);
    CHECK(SplitLines(r.out).size() == 1);  // the second pair only
    CHECK(r.err.find("not later than the one before") != std::string::npos);
  }

  TEST_CASE("play of a live recording prints what is flushed so far") {
    FakeProc fake(CountersAt(0));
    TempDir dir;
    std::string path = dir / "live.pgr.gz";
    CommandSession s({"record", "--root", fake.root(), "-l", path, "-i", "3600"});
    s.ReadReadyLine();
    fake.Write(CountersAt(1));
    REQUIRE(bool(s.Command("sample").root()["ok"]));
    ExitResult live = Run({"play", path});
    CAPTURE(live.err);
    CHECK(live.code == 0);
    CHECK(SplitLines(live.out).size() == 1);
    CHECK(live.err.find("recording truncated after 2 samples") != std::string::npos);
    s.CloseStop();
    REQUIRE(s.Wait().code == 0);
    ExitResult done = Run({"play", path});
    CHECK(SplitLines(done.out).size() == 2);
    CHECK(done.out.starts_with(live.out));
    CHECK(done.err.empty());
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
}

}  // namespace
}  // namespace pm::test
