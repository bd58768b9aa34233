// sar -B, -n TCP and iostat's discards on this machine's real /proc: a
// memory hog's faults, a loopback connection burst's opens, a loop
// device's discards, each checked against what the test itself did.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cmath>
#include <string>
#include <vector>

#include "test/process/recording.hh"

namespace pm::test {
namespace {

// A recording's header and sample lines, the samples' member `key` field
// `name` (by the header's own field list) read by Field().
struct Samples {
  explicit Samples(const std::string& path) {
    Recording rec = ReadRecording(path);
    header = Json(rec.lines.at(0));
    for (size_t i = 1; i < rec.lines.size(); ++i)
      if (!Json(rec.lines[i]).Has("event")) lines.emplace_back(rec.lines[i]);
  }
  // The column of `name` among member `key`'s declared fields, or -1.
  int Column(std::string_view key, std::string_view name) const {
    const auto& fields = header.root()["collectors"][key]["fields"].array();
    for (size_t i = 0; i < fields.size(); ++i)
      if (std::string_view(fields[i]) == name) return static_cast<int>(i);
    return -1;
  }
  // Field `name` of member `key` (its `row`, for a member of rows), last
  // sample minus first.
  int64_t Delta(std::string_view key, std::string_view name, int row = -1) const {
    int c = Column(key, name);
    REQUIRE_MESSAGE(c >= 0, key << " declares no " << name);
    auto at = [&](const Json& s) {
      const JsonValue& m = s.root()[key];
      return int64_t(row < 0 ? m.at(size_t(c)) : m.at(size_t(row)).at(size_t(c)));
    };
    return at(lines.back()) - at(lines.front());
  }
  // The span, on the monotonic clock readers measure intervals on.
  double Seconds() const {
    return static_cast<double>(int64_t(lines.back().root()["mono"]) -
                               int64_t(lines.front().root()["mono"])) / 1e9;
  }
  Json header{"{}"};
  std::vector<Json> lines;
};

ExitResult Stat(const TempDir& dir, std::vector<std::string> extra, std::string script) {
  SpawnOptions options;
  options.args = {"stat", "--json", "-i", "60", "-l", dir / "s.pgr"};
  options.args.insert(options.args.end(), extra.begin(), extra.end());
  options.args.insert(options.args.end(), {"--", "sh", "-c", std::move(script)});
  options.cwd = dir.path();
  return Child(std::move(options)).Wait(After(std::chrono::seconds(120)));
}

}  // namespace

TEST_SUITE("sar's activity on the real machine") {
  TEST_CASE("stat -- a memory hog: its page faults in fault/s, everywhere") {
    TempDir dir;
    // 64 MiB touched a page at a time, huge pages refused: at least 16384
    // faults inside the command.
    const std::string hog =
        "/usr/bin/python3 -c 'import mmap\n"
        "m = mmap.mmap(-1, 64 << 20)\n"
        "m.madvise(mmap.MADV_NOHUGEPAGE)\n"
        "for i in range(0, 64 << 20, 4096): m[i] = 1\n'";
    ExitResult r = Stat(dir, {}, hog);
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    Samples s(dir / "s.pgr");
    REQUIRE(s.lines.size() == 2);
    const int64_t faults = s.Delta("vmstat", "pgfault");
    CHECK(faults >= 16384);
    const Json summary(r.out);
    CAPTURE(r.out);
    CHECK(std::abs(double(summary.root()["vmstat"]["faultps"]) -
                   static_cast<double>(faults) / s.Seconds()) <= 0.01 + 1e-6 * faults);
    ExitResult text = Run({"summary", dir / "s.pgr"});
    CHECK(text.out.find("* Paging and swapping\n") != std::string::npos);
    ExitResult om = Run({"play", "--format", "openmetrics", dir / "s.pgr"});
    CHECK(om.out.find("\nnode_vmstat_pgfault{instance=") != std::string::npos);
    ExitResult csv = Run({"play", "--format", "csv", dir / "s.pgr"});
    CHECK(csv.out.find(",vmstat.faultps,vmstat.majfltps,") != std::string::npos);
  }

  TEST_CASE("stat -- a loopback connection burst: its opens in active/s and passive/s") {
    TempDir dir;
    const std::string burst =
        "/usr/bin/python3 -c 'import socket\n"
        "l = socket.socket(); l.bind((\"127.0.0.1\", 0)); l.listen(64)\n"
        "for _ in range(40):\n"
        "    c = socket.create_connection(l.getsockname()); a, _ = l.accept()\n"
        "    a.close(); c.close()\n'";
    ExitResult r = Stat(dir, {}, burst);
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    Samples s(dir / "s.pgr");
    REQUIRE(s.lines.size() == 2);
    CHECK(s.Delta("netstat", "Tcp_ActiveOpens") >= 40);
    CHECK(s.Delta("netstat", "Tcp_PassiveOpens") >= 40);
    const Json summary(r.out);
    CAPTURE(r.out);
    const double active = double(summary.root()["netstat"]["tcp"]["activeps"]);
    CHECK(active * s.Seconds() >= 39.9);
    ExitResult om = Run({"play", "--format", "openmetrics", dir / "s.pgr"});
    CHECK(om.out.find("\nnode_netstat_Tcp_ActiveOpens{instance=") != std::string::npos);
    CHECK(om.out.find("\nnode_netstat_Tcp_RetransSegs{instance=") != std::string::npos);
    // --record-netstat=false leaves it out.
    ExitResult off = Stat(dir, {"--record-netstat=false", "--record-vmstat=false"}, "true");
    REQUIRE(off.code == 0);
    CHECK_FALSE(Json(off.out).Has("netstat"));
    CHECK_FALSE(Json(off.out).Has("vmstat"));
  }

  TEST_CASE("stat -- blkdiscard of a loop device: its discards in diops and dkbyteps") {
    if (::geteuid() != 0) {
      MESSAGE("skipped: discards need a loop device, so root");
      return;
    }
    TempDir dir;
    SpawnOptions lo;
    lo.program = "/bin/sh";
    lo.args = {"-c", "truncate -s 64M img && losetup -f --show img"};
    lo.cwd = dir.path();
    ExitResult attached = Child(std::move(lo)).Wait(After(std::chrono::seconds(60)));
    if (attached.code != 0 || !attached.out.starts_with("/dev/loop")) {
      MESSAGE("skipped: no loop device here (" << attached.err << ")");
      return;
    }
    const std::string dev = attached.out.substr(0, attached.out.find('\n'));
    const std::string name = dev.substr(5);
    ExitResult r = Stat(dir, {"-d", name}, "blkdiscard " + dev);
    SpawnOptions detach;
    detach.program = "/bin/sh";
    detach.args = {"-c", "losetup -d " + dev};
    Child(std::move(detach)).Wait(After(std::chrono::seconds(60)));
    CAPTURE(r.err);
    Samples s(dir / "s.pgr");
    if (s.Column("disk", "discards") < 0 || r.code != 0) {
      MESSAGE("skipped: this kernel or " << dir.path() << " takes no discards");
      return;
    }
    const int64_t sectors = s.Delta("disk", "discard_sectors", 0);
    CHECK(sectors == (64 << 20) / 512);
    CHECK(s.Delta("disk", "discards", 0) >= 1);
    const Json summary(r.out);
    CAPTURE(r.out);
    const JsonValue& d = summary.root()["disk"][name];
    CHECK(std::abs(double(d["dkbyteps"]) * s.Seconds() - 65536.0) <= 1.0);
    CHECK(double(d["diops"]) > 0);
    ExitResult om = Run({"play", "--format", "openmetrics", dir / "s.pgr"});
    CHECK(om.out.find("\nnode_disk_discarded_sectors_total{device=\"" + name + "\"") !=
          std::string::npos);
  }
}

}  // namespace pm::test
