// `perfmonger plot` on a hostile recording: recordings are exchanged
// between people, and gnuplot runs commands from its scripts (`...` and
// system() outside single quotes, '<cmd' data files, '|cmd' outputs). Every
// string a recording provides (host, kernel, metadata keys and values,
// disk, interface and process names, cgroup paths, mark labels) and every
// string of the command line that reaches a script (-p, -o) carries each
// way to run a command; real gnuplot draws every chart, and no command ran.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "proto/json.hh"
#include "test/process/fake_proc.hh"
#include "test/process/plot_checks.hh"

namespace pm::test {
namespace {

namespace fs = std::filesystem;

// Each way, run, creates a file named PWNED-<field><n> in gnuplot's
// working directory: backticks, system(), a shell's $( ), a '...' or a
// "..." closed early, a command after ';' or on a line of its own, a
// comment and a trailing backslash (a continued line).
std::vector<std::string> Ways(const std::string& field, bool newlines = true) {
  std::string m = "PWNED-" + field;
  std::vector<std::string> ways = {
      "`touch " + m + "1`", "system(\"touch " + m + "2\")", "$(touch " + m + "3)",
      "'.system('touch " + m + "4').'", "\".system(\"touch " + m + "5\").\"",
      "; system('touch " + m + "6') #"};
  if (newlines) ways.push_back("\nsystem('touch " + m + "7')\n");
  ways.push_back("\\");
  return ways;
}

std::string Payload(const std::string& field, bool newlines = true) {
  std::string text;
  for (const std::string& way : Ways(field, newlines)) text += way + " ";
  text.pop_back();
  return text;
}

std::string PercentEncoded(const std::string& s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) out += {'%', kHex[c >> 4], kHex[c & 15]};
  return out;
}

std::string JsonString(const std::string& s) {
  std::string out;
  AppendJsonString(out, s);
  return out;
}

void ReplaceAll(std::string& text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

// A real recording of a fake tree whose cgroup is named by a payload, with
// payloads as its metadata and as mark labels (one way each: a label is one
// printable line).
std::string HostileRecording(const TempDir& dir) {
  FakeProc fake(CountersAt(0));
  std::string cgroup = Payload("c");
  fs::create_directories(fake.root() + "/proc/42/task/42");
  fs::create_directories(fake.root() + "/sys/fs/cgroup/" + cgroup);
  WriteFile(fake.root() + "/sys/fs/cgroup/cgroup.controllers", "cpu\n");
  auto write_extra = [&](uint64_t k) {
    std::string n = std::to_string(k);
    WriteFile(fake.root() + "/proc/42/stat",
              "42 (job) R 1 42 42 0 -1 0 0 0 0 0 " + n + "0 " + n + " 0 0 20 0 1 0 1 2 3\n");
    WriteFile(fake.root() + "/proc/42/io", "rchar: " + n + "\nwchar: 0\nsyscr: 1\nsyscw: 1\n"
                                           "read_bytes: 0\nwrite_bytes: 0\n");
    WriteFile(fake.root() + "/proc/42/task/42/schedstat", n + "0000000 0 1\n");
    WriteFile(fake.root() + "/sys/fs/cgroup/" + cgroup + "/cpu.stat",
              "usage_usec " + n + "00\nuser_usec 0\nsystem_usec 0\n");
  };
  write_extra(1);
  std::string path = dir / "hostile.pgr";
  CommandSession s({"record", "--root", fake.root(), "-l", path, "-i", "3600", "--pid", "42",
                    "--cgroup", cgroup, "--meta",
                    PercentEncoded(Payload("k")) + "=" + PercentEncoded(Payload("v"))});
  s.ReadReadyLine();
  uint64_t k = 0;
  std::vector<std::string> commands = {"sample", "sample"};
  for (const std::string& way : Ways("m", false)) commands.push_back("mark " + way);
  commands.insert(commands.end(), {"sample", "sample"});
  for (const std::string& command : commands) {
    fake.Write(CountersAt(++k * 10));
    write_extra(k + 1);
    CAPTURE(command);
    REQUIRE(bool(s.Command(command).root()["ok"]));
  }
  s.CloseStop();
  REQUIRE(s.Wait().code == 0);
  return path;
}

// The recording with its header's host, kernel, disk, interface and
// process names replaced by payloads. `host` "": the metadata shows instead
// (the subtitle under each title holds 200 bytes).
std::string Forged(const std::string& recorded, const std::string& out, bool host) {
  std::string bytes = ReadFileBytes(recorded);
  size_t eol = bytes.find('\n');
  std::string header = bytes.substr(0, eol);
  Json parsed(header);
  ReplaceAll(header, "\"host\":" + JsonString(parsed.Str("host")),
             "\"host\":" + JsonString(host ? Payload("h") : "db1"));
  ReplaceAll(header, "\"kernel\":" + JsonString(parsed.Str("kernel")),
             "\"kernel\":" + JsonString(Payload("r")));
  ReplaceAll(header, "\"vda\"", JsonString(Payload("d")));
  ReplaceAll(header, "\"eth0\"", JsonString(Payload("n")));
  ReplaceAll(header, "[\"42\"]", "[" + JsonString(Payload("p")) + "]");
  WriteFile(out, header + bytes.substr(eol));
  return out;
}

// Files named PWNED-... anywhere under `dir`: a command ran.
std::vector<std::string> Planted(const std::string& dir) {
  std::vector<std::string> found;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.path().filename().string().starts_with("PWNED"))
      found.push_back(entry.path().string());
  return found;
}

const std::vector<std::string> kCharts = {"cpu", "allcpu", "disk-iops",
                                          "disk-transfer", "mem", "net"};

}  // namespace

TEST_CASE("plot: no string of a recording or of the command line runs a command") {
  TempDir dir;
  std::string recorded = HostileRecording(dir);
  struct Run {
    const char* type;
    bool host;            // the host's payload, else the metadata's
    std::string prefix;   // -p: a pipe for gnuplot if it led a file name
  };
  const Run runs[] = {
      {"svg", true, "|touch PWNED-o0; " + Payload("o", false)},
      {"pdf", false, "<touch PWNED-i0; " + Payload("i", false)},
  };
  for (const Run& run : runs) {
    CAPTURE(run.type);
    std::string out = dir / ("out " + Payload(run.type, false));  // -o
    std::string file = Forged(recorded, dir / (std::string(run.type) + ".pgr"), run.host);
    fs::create_directory(dir / "cwd");
    ExitResult r = RunPlot({"-T", run.type, "-s", "-p", run.prefix, "-o", out, file},
                           {"TMPDIR=" + dir.path()}, dir / "cwd");
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(Planted(dir.path()) == std::vector<std::string>{});
    for (const std::string& chart : kCharts)
      CheckChartFile(out + "/" + run.prefix + chart + "." + run.type, run.type);
  }
  // The hostile text is drawn as it is, in the title and a mark's label.
  std::string svg = ReadFileBytes(dir / ("out " + Payload("svg", false)) + "/" +
                                  runs[0].prefix + "cpu.svg");
  CHECK(svg.find("`touch PWNED-h1` system(") != std::string::npos);
  CHECK(svg.find("$(touch PWNED-m3)") != std::string::npos);
}

TEST_CASE("plot: a file name gnuplot cannot open is refused before anything is made") {
  TempDir dir;
  for (const std::vector<std::string>& names :
       {std::vector<std::string>{"-p", "run\n1-", "-o", dir / "charts"},
        std::vector<std::string>{"-o", dir / "new\ncharts"}}) {
    std::vector<std::string> args = names;
    args.push_back(LegacyFile("busy100.pgr"));
    ExitResult r = RunPlot(args);
    CHECK(r.code == 1);
    CHECK(r.err.starts_with("perfmonger plot: error: -o or -p: "));
    CHECK(r.err.find("control character") != std::string::npos);
    CHECK(fs::is_empty(dir.path()));
  }
}

}  // namespace pm::test
