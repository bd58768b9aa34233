// Strings a recording or the kernel chose, on their way to a terminal: a
// crafted recording whose device, interface, cgroup and process names and
// mark labels hold escape sequences (a title set by OSC, a screen cleared
// by CSI, BEL, CR, the C1 CSI U+009B) reaches no terminal raw, through any
// text output or message (summary in every mode, play --table, play's mark
// lines, the "no such mark" error, live's table). Each name still shows,
// escaped as proto/text.hh's Printable() writes it.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "test/process/fake_proc.hh"

namespace pm::test {
namespace {

// In the header's JSON, and as Printable() shows it.
const std::string kEvilJson = "\\u001b]0;PWN\\u0007\\u001b[2J\\r\\u009b31m";
const std::string kEvilRaw = "\x1b]0;PWN\x07\x1b[2J\r\xc2\x9b" "31m";
const std::string kEvilShown = "\\x1b]0;PWN\\x07\\x1b[2J\\r\\xc2\\x9b31m";

// The first byte a terminal would act on: C0 but '\n', DEL, or a C1
// control's UTF-8 (C2 80-9F); npos when none.
size_t FirstControl(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\n') || c == 0x7f) return i;
    if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0xA0)
      return i;
  }
  return std::string::npos;
}

void CheckNoControl(const std::string& what, const std::string& text) {
  size_t at = FirstControl(text);
  CAPTURE(what);
  CAPTURE(text.substr(at == std::string::npos ? 0 : (at > 60 ? at - 60 : 0), 90));
  CHECK(at == std::string::npos);
}

void Replace(std::string& text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

// The digits after `"key":` in a JSON line.
std::string NumberAfter(const std::string& line, const std::string& key) {
  size_t at = line.find("\"" + key + "\":");
  REQUIRE(at != std::string::npos);
  at += key.size() + 3;
  return line.substr(at, line.find_first_not_of("0123456789", at) - at);
}

// A fake machine with one more disk, interface, a process and a cgroup
// named DISKX, NETX, JOBX and CGX, recorded (version 1: names only in the
// header), then the names swapped for escape sequences in the header and
// a mark labelled with them added: what a hostile file would hold.
std::string CraftedRecording(const TempDir& dir) {
  FakeCounters start = CountersAt(0);
  start.more_disks.push_back({"DISKX", CountersAt(0).vda});
  start.more_nets.push_back({"NETX", CountersAt(0).eth0});
  FakeProc fake(start);
  const std::string& root = fake.root();
  std::filesystem::create_directories(root + "/proc/42/task/42");
  std::filesystem::create_directories(root + "/sys/fs/cgroup/CGX");
  WriteFile(root + "/sys/fs/cgroup/cgroup.controllers", "cpu\n");
  std::vector<FakeCounters> counters;
  for (uint64_t k = 0; k < 4; ++k) {
    FakeCounters c = CountersAt(k);
    c.more_disks.push_back({"DISKX", CountersAt(k + 1).vda});
    c.more_nets.push_back({"NETX", CountersAt(k + 1).eth0});
    counters.push_back(c);
  }
  std::string n = "7";
  WriteFile(root + "/proc/42/stat", "42 (JOBX) R 1 42 42 0 -1 0 0 0 0 0 " + n + "0 " + n +
                                        " 0 0 20 0 1 0 1 2 3\n");
  WriteFile(root + "/proc/42/io", "rchar: 1\nwchar: 0\nsyscr: 1\nsyscw: 1\n"
                                  "read_bytes: 0\nwrite_bytes: 0\n");
  WriteFile(root + "/proc/42/task/42/schedstat", "70000000 7000 1\n");
  WriteFile(root + "/sys/fs/cgroup/CGX/cpu.stat", "usage_usec 100\nuser_usec 0\nsystem_usec 0\n");
  std::string recorded = dir / "recorded.pgr";
  RecordFake(fake, recorded, counters,
             {"--format-version", "1", "--pid", "42", "--cgroup", "CGX"});
  std::vector<std::string> lines = SplitLines(ReadFileBytes(recorded));
  REQUIRE(lines.size() >= 5);
  for (const char* name : {"DISKX", "NETX", "JOBX", "CGX"})
    REQUIRE(lines[0].find(name) != std::string::npos);
  Replace(lines[0], "DISKX", "vd" + kEvilJson);
  Replace(lines[0], "NETX", "eth" + kEvilJson);
  Replace(lines[0], "JOBX", "job" + kEvilJson);
  Replace(lines[0], "CGX", "cg" + kEvilJson);
  const std::string& at = lines[2];  // the second sample: the mark splits the pairs
  lines.insert(lines.begin() + 3, "{\"event\":\"mark\",\"t\":" + NumberAfter(at, "t") +
                                      ",\"mono\":" + NumberAfter(at, "mono") +
                                      ",\"label\":\"q" + kEvilJson + "\"}");
  std::string crafted = dir / "crafted.pgr";
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  WriteFile(crafted, text);
  return crafted;
}

// The value of "host" in a header line replaced by `json` (JSON text).
void SetHost(std::string& header, const std::string& json) {
  size_t from = header.find("\"host\":\"");
  REQUIRE(from != std::string::npos);
  from += 8;
  header.replace(from, header.find('"', from) - from, json);
}

}  // namespace

TEST_SUITE("hostile strings") {
  TEST_CASE("a crafted recording's names and labels reach no terminal raw, and still show") {
    TempDir dir;
    const std::string file = CraftedRecording(dir);
    struct Case {
      std::vector<std::string> args;
      int code;
      std::vector<std::string> shown;  // what stdout and stderr must hold
    };
    const std::string disk = "vd" + kEvilShown, net = "eth" + kEvilShown,
                      cg = "cg" + kEvilShown, mark = "q" + kEvilShown;
    const Case cases[] = {
        {{"summary", file}, 0, {"* Average DEVICE usage: " + disk, "* Cgroup " + cg}},
        {{"summary", "--all", file}, 0, {"* Average NETWORK usage: " + net}},
        {{"summary", "--phases", file}, 0, {"phase '" + mark + "'", "* Cgroup " + cg}},
        {{"summary", "--stats", file}, 0, {"disk." + disk + ".riops"}},
        {{"summary", "--all", "--stats", "--phases", file}, 0, {"cgroups." + cg + "."}},
        // A heading too long for its columns shows the name's end (last on its line).
        {{"play", "--table", file}, 0, {"\\x9b31m\n"}},
        {{"play", "--table", "--columns", "disk:vd" + kEvilRaw + ",net:eth" + kEvilRaw, file},
         0,
         {"\\x9b31m\n"}},
        {{"play", "--format", "csv", file}, 0, {"# mark: " + mark}},  // stderr
        {{"summary", "--phase", "none" + kEvilRaw, file}, 1, {"its marks: " + mark}},
        {{"play", "--from", "mark:none" + kEvilRaw, file}, 1, {"no mark 'none" + kEvilShown}},
        {{"play", "--table", "--columns", "x" + kEvilRaw, file}, 1, {"'x" + kEvilShown + "'"}},
        // plot shows names as its charts do, each control byte '?'.
        {{"plot", "-T", "svg", "-o", dir / "charts", "--disk-only", "none", file},
         0,
         {"matches none of its disks (vd?]0;PWN??[2J???31m, vda)"}},
    };
    for (const Case& c : cases) {
      ExitResult r = Run(c.args);
      CAPTURE(c.args[0]);
      CAPTURE(c.args[1]);
      CAPTURE(r.err);
      CAPTURE(r.out.substr(0, 600));
      CHECK(r.code == c.code);
      if (c.args[1] != "--format") CheckNoControl("stdout", r.out);  // CSV ends lines CRLF
      CheckNoControl("stderr", r.err);
      for (const std::string& s : c.shown) {
        CAPTURE(s);
        CHECK((r.out + r.err).find(s) != std::string::npos);
      }
    }
  }

  TEST_CASE("live's table and errors: a cgroup's and a disk's names as the kernel gives them") {
    FakeProc fake(CountersAt(0));
    const std::string group = "g\x1b]0;PWN\x07\x1b[2J";
    std::filesystem::create_directories(fake.root() + "/sys/fs/cgroup/" + group);
    WriteFile(fake.root() + "/sys/fs/cgroup/cgroup.controllers", "cpu\n");
    WriteFile(fake.root() + "/sys/fs/cgroup/" + group + "/cpu.stat",
              "usage_usec 100\nuser_usec 0\nsystem_usec 0\n");
    CommandSession s({"live", "--root", fake.root(), "-i", "3600", "--table", "--color=never",
                      "--cgroup", group});
    s.ReadReadyLine();
    fake.Write(CountersAt(1));
    REQUIRE(bool(s.Command("sample").root()["ok"]));
    s.CloseStop();
    ExitResult r = s.Wait();
    CAPTURE(r.err);
    CAPTURE(r.out);
    CHECK(r.code == 0);
    CheckNoControl("stdout", r.out);
    CheckNoControl("stderr", r.err);
    CHECK(r.out.find("\\x1b[2J\n") != std::string::npos);  // the heading's end, last on its line
    // A disk asked for that is not there: the error quotes the name given.
    ExitResult missing =
        Run({"live", "--root", fake.root(), "-t", "1", "-d", "no\x1b]0;PWN\x07"});
    CHECK(missing.code == 1);
    CheckNoControl("stderr", missing.err);
    CHECK(missing.err.find("no\\x1b]0;PWN\\x07") != std::string::npos);
  }

  TEST_CASE("CSV: a host, run or phase cell that a spreadsheet would run gets a leading '") {
    FakeProc fake(CountersAt(0));
    TempDir dir;
    std::string recorded = dir / "r.pgr";
    RecordFake(fake, recorded, {CountersAt(0), CountersAt(1), CountersAt(2)},
               {"--format-version", "1", "--meta", "run=+1%2B2"});
    std::vector<std::string> lines = SplitLines(ReadFileBytes(recorded));
    REQUIRE(lines.size() >= 4);
    SetHost(lines[0], "=HYPERLINK(\\\"http://x\\\",\\\"y\\\")");
    lines.insert(lines.begin() + 2, "{\"event\":\"mark\",\"t\":" + NumberAfter(lines[1], "t") +
                                        ",\"mono\":" + NumberAfter(lines[1], "mono") +
                                        ",\"label\":\"@SUM(A1)\"}");
    std::string text;
    for (const std::string& line : lines) text += line + "\n";
    std::string crafted = dir / "crafted.pgr";
    WriteFile(crafted, text);
    ExitResult r = Run({"play", "--format", "csv", "--columns", "host,run,phase", crafted});
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    std::vector<std::string> rows = SplitLines(r.out);
    REQUIRE(rows.size() >= 2);
    CHECK(rows[0].starts_with("host,run,phase,time,"));
    // host (quoted: it holds commas and quotes), run, phase: each a leading '.
    const std::string keys = "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",'+1+2,'@SUM(A1),";
    CAPTURE(rows[1]);
    CHECK(rows[1].starts_with(keys));
    // No cell anywhere starts a formula; numbers, negative ones too, stay numbers.
    for (size_t i = 1; i < rows.size(); ++i)
      for (std::string_view bad : {",=", ",+", ",@", ",\"=", ",\"+", ",\"@"}) {
        CAPTURE(rows[i]);
        CHECK(rows[i].find(bad) == std::string::npos);
        CHECK(!rows[i].starts_with(bad.substr(1)));
      }
  }
}

}  // namespace pm::test
