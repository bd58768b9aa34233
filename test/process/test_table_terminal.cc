// live's table and play --table on a pseudo-terminal, as a person sees them:
// rows that fit the width, the header again every screenful and after a
// resize, a CPU hog in the usr column within two rows, Ctrl-C ending with
// the last row and an average row, exit 0. With --record-procs, the
// busiest processes under each row, a CPU hog among them.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <algorithm>
#include <string>
#include <vector>

#include "test/process/proc_blocks.hh"
#include "test/process/spawn.hh"
#include "test/process/terminal.hh"

namespace pm::test {
namespace {

const std::vector<std::string> kEnv = {"PATH=/usr/bin:/bin", "TERM=xterm"};

std::vector<std::string> Lines(const std::string& shown) {
  std::vector<std::string> lines = SplitLines(shown);
  for (std::string& line : lines)
    if (line.starts_with("^C")) line.erase(0, 2);  // the terminal's echo of Ctrl-C
  return lines;
}

// "HH:MM:SS|", or below a second "HH:MM:SS.d...|"; where the '|' is.
size_t TimeEnd(const std::string& line) {
  if (line.size() < 10 || line[2] != ':' || line[5] != ':') return 0;
  size_t bar = line.find('|');
  return bar == 8 || (bar > 9 && bar <= 12 && line[8] == '.') ? bar : 0;
}

bool IsRow(const std::string& line) { return TimeEnd(line) != 0; }

size_t Count(const std::string& text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

void CheckFits(const std::string& shown, size_t columns) {
  for (const std::string& line : Lines(shown)) {
    CAPTURE(line);
    CHECK(line.size() <= columns);
  }
}

// The usr column of a row: the first after the time.
int Usr(const std::string& row) { return std::stoi(row.substr(TimeEnd(row) + 1, 3)); }

int Exited(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }

}  // namespace

TEST_SUITE("the table on a terminal") {
  TEST_CASE("live at 80 columns: rows fit, the header repeats, Ctrl-C ends with an average, exit 0") {
    // 10 rows: a header (2 lines) and 7 rows a screen, the cursor's line left.
    Terminal t({PerfmongerPath(), "live", "-i", "0.1"}, kEnv, 80, 10);
    std::string shown = t.WaitFor("  time  |");
    shown += t.WaitFor("  time  |");  // again, a screenful later
    shown += t.WaitFor("\n");
    t.Type("\x03");
    shown += t.WaitFor("average");
    shown += t.WaitFor("\n");
    CHECK(Exited(t.WaitExit()) == 0);
    CAPTURE(shown);
    CheckFits(shown, 80);
    std::vector<std::string> lines = Lines(shown);
    size_t rows = 0;
    for (const std::string& line : lines) rows += IsRow(line);
    CHECK(rows >= 7);
    CHECK(Count(shown, "--cpu--") >= 2);
    // -i 0.1: the time's tenths take two columns, so the memory's free no
    // longer fits in 80.
    CHECK(shown.find("|usr sys wai stl idl| read  writ max%| recv  send| used  cach") !=
          std::string::npos);
    CHECK(lines.back().starts_with("average "));
    CHECK(lines.back().find('|') == lines[1].find('|'));
    CHECK(lines.back().size() == lines[1].size());  // the same columns as the header's
  }

  TEST_CASE("live: a CPU hog pinned to core 0 shows in cpu:0's usr column within two rows") {
    Terminal t({PerfmongerPath(), "live", "-i", "0.3", "--columns", "cpu:0"}, kEnv, 80, 50);
    t.WaitFor("  time  |");
    t.WaitFor("\n");
    SpawnOptions hog;
    hog.program = "/usr/bin/taskset";
    hog.args = {"-c", "0", "/bin/sh", "-c", "while :; do :; done"};
    Child running(std::move(hog));
    // The row being sampled when the hog started is partly before it; the
    // next is all after.
    std::string first = t.WaitFor("\n"), second = t.WaitFor("\n");
    CAPTURE(first);
    CAPTURE(second);
    REQUIRE(IsRow(second));
    // A busy machine shares core 0 among its hogs: ours has a fair share.
    CHECK(std::max(Usr(first), Usr(second)) >= 25);
    t.Type("\x03");
    t.WaitFor("average");
    CHECK(Exited(t.WaitExit()) == 0);
  }

  TEST_CASE("live --record-procs --top 40: a CPU hog among the busiest under each row") {
    SpawnOptions hog;
    hog.program = "/bin/sh";
    hog.args = {"-c", "while :; do :; done"};
    Child running(std::move(hog));
    Terminal t({PerfmongerPath(), "live", "-i", "0.3", "--record-procs", "--top", "40"}, kEnv, 100,
               60);
    std::string shown = t.WaitFor(std::string(kProcHeader) + "\n");
    // Its row in a later block: each one lists every process that ran
    // but the 40th's lesser ones, and a spinning shell runs in each.
    const std::string pid = std::to_string(running.pid());
    shown += t.WaitFor("\n" + std::string(7 - pid.size(), ' ') + pid + " ");
    shown += t.WaitFor("\n");
    t.Type("\x03");
    shown += t.WaitFor("average");
    CHECK(Exited(t.WaitExit()) == 0);
    CAPTURE(shown);
    CheckFits(shown, 100);
    const std::vector<std::vector<ProcLine>> blocks = ProcBlocks(Lines(shown));
    REQUIRE(blocks.size() >= 2);
    CheckBlocks(blocks, 40);
    double most = -1;
    for (const std::vector<ProcLine>& block : blocks)
      for (const ProcLine& p : block)
        if (p.pid == running.pid()) {
          CHECK(p.comm == "sh");
          most = std::max(most, p.cpu);
        }
    CHECK(most >= 10);  // a busy machine's fair share of a core, and more
  }

  TEST_CASE("live: a resize to 200 columns brings a new header and the groups that now fit") {
    Terminal t({PerfmongerPath(), "live", "-i", "0.1", "--record-pressure"}, kEnv, 80, 50);
    std::string narrow = t.WaitFor("  time  |");
    narrow += t.WaitFor("\n");
    narrow += t.WaitFor("\n");
    CheckFits(narrow, 80);
    CHECK(narrow.find("pressure") == std::string::npos);  // it does not fit 80
    t.Resize(200, 50);
    std::string wide = t.WaitFor("pressure");
    wide += t.WaitFor("\n");
    wide += t.WaitFor("\n");
    wide += t.WaitFor("\n");
    t.Type("\x03");
    wide += t.WaitFor("average");
    CHECK(Exited(t.WaitExit()) == 0);
    CAPTURE(wide);
    CheckFits(wide, 200);
    std::vector<std::string> lines = Lines(wide);
    REQUIRE(lines.size() >= 3);
    CHECK(lines[lines.size() - 2].size() > 80);  // a row after the resize, wider
  }

  TEST_CASE("live -i 0.25 --columns cpu,intr: times to the hundredth, each row its own; int, csw") {
    Terminal t({PerfmongerPath(), "live", "-i", "0.25", "--columns", "cpu,intr"}, kEnv, 80, 50);
    std::string shown = t.WaitFor("  time  |");
    for (int i = 0; i < 5; ++i) shown += t.WaitFor("\n");
    t.Type("\x03");  // the stop's row may fall in the last one's hundredth: not checked
    CHECK(Exited(t.WaitExit()) == 0);
    CAPTURE(shown);
    CHECK(shown.find("|usr sys wai stl idl|  int   csw") != std::string::npos);
    std::vector<std::string> times;
    for (const std::string& line : Lines(shown)) {
      if (!IsRow(line)) continue;
      CHECK(TimeEnd(line) == 11);  // "HH:MM:SS.hh"
      times.push_back(line.substr(0, 11));
      // Interrupts and context switches measured: digits, not "-".
      std::string system = line.substr(line.rfind('|') + 1);
      CHECK(system.find('-') == std::string::npos);
      CHECK(system.find_first_of("0123456789") != std::string::npos);
    }
    REQUIRE(times.size() >= 4);
    for (size_t i = 1; i < times.size(); ++i) CHECK(times[i] > times[i - 1]);
  }

  TEST_CASE("live --json on a terminal: JSON lines, as into a pipe") {
    Terminal t({PerfmongerPath(), "live", "-i", "0.1", "--json"}, kEnv, 80, 50);
    std::string line = t.WaitFor("}\n");
    CHECK(line.starts_with("{\"time\":"));
    t.Type("\x03");
    CHECK(Exited(t.WaitExit()) == 0);
  }

  TEST_CASE("play --table at 80 and 200 columns: the recording as live shows it, windows too") {
    TempDir dir;
    std::string file = dir.path() + "/r.pgr";
    ExitResult r = Run({"record", "-i", "0.1", "--timeout", "1.5", "--record-load",
                        "--no-gzip", "-l", file});
    REQUIRE(r.code == 0);
    for (unsigned short columns : {80, 200}) {
      CAPTURE(columns);
      Terminal t({PerfmongerPath(), "play", "--table", file}, kEnv, columns, 8);
      std::string shown = t.WaitFor("average");
      shown += t.WaitFor("\n");
      CHECK(Exited(t.WaitExit()) == 0);
      CAPTURE(shown);
      CheckFits(shown, columns);
      CHECK(Count(shown, "  time  |") >= 2);  // 8 lines: a header every 5 rows
      // At 80 the time's tenths leave the load no room.
      CHECK((shown.find("|  1m") != std::string::npos) == (columns == 200));
      CHECK((shown.find("load avg") != std::string::npos) == (columns == 200));
    }
    Terminal late({PerfmongerPath(), "play", "--table", "--from", "1", file}, kEnv, 80, 50);
    std::string shown = late.WaitFor("average");
    CHECK(Exited(late.WaitExit()) == 0);
    size_t rows = 0;
    for (const std::string& line : Lines(shown)) rows += IsRow(line);
    CHECK(rows >= 1);
    CHECK(rows <= 6);  // the last half second, not the whole
  }
}

}  // namespace pm::test
