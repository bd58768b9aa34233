// The vmstat and netstat reports on hand-built samples: rates, counts and
// levels in play, summary, CSV and OpenMetrics, and a field the
// recording's kernel did not print shown nowhere (not as 0).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "playback/outputs/export_csv.hh"
#include "playback/outputs/export_openmetrics.hh"
#include "playback/outputs/summary.hh"
#include "proto/stream.hh"
#include "test/playback/rates_test_util.hh"
#include "proto/columns/vmstat.hh"
#include "proto/columns/netstat.hh"

namespace pm::test {
namespace {

// 2 s apart: 40000 faults, 10 major, 2048 kB paged in, 4 OOM kills;
// 30 active and 20 passive opens, 6 retransmissions, 3 established then 5.
struct Activity {
  RawSample a = At(0), b = At(2 * kSec);
  std::vector<std::vector<bool>> recorded = std::vector<std::vector<bool>>(MemberCount());
  Activity() {
    AddRow(a, "vmstat", "", Values{1000, 500, 0, 0, 100000, 50, 9000, 0, 0, 0, 0, 1});
    AddRow(b, "vmstat", "", Values{3048, 500, 0, 0, 140000, 60, 9000, 0, 0, 0, 0, 5});
    Values n0(kNetstatFields.size(), 0), n1(kNetstatFields.size(), 0);
    n0[17] = 3;
    n1[0] = 30, n1[1] = 20, n1[6] = 6, n1[17] = 5;
    AddRow(a, "netstat", "", n0);
    AddRow(b, "netstat", "", n1);
  }
  // A kernel before 4.13 (no oom_kill) and without Udp's buffer errors.
  void Older() {
    recorded[MemberIndexOf("vmstat")].assign(kVmstatFields.size(), true);
    recorded[MemberIndexOf("vmstat")].back() = false;
    std::vector<bool>& net = recorded[MemberIndexOf("netstat")];
    net.assign(kNetstatFields.size(), true);
    net[13] = net[14] = false;
  }
  std::string Play() const {
    ReportOptions options;
    options.recorded = &recorded;
    std::string out;
    AppendPlayJson(out, Pair(a, b, {}, options));
    return out;
  }
  std::string Csv() const {
    ReportOptions options;
    options.recorded = &recorded;
    CsvExport csv;
    std::string out;
    csv.AppendRow(out, Pair(a, b, {}, options));
    return out;
  }
  std::string Summary() const {
    SummaryInput in;
    in.first = &a;
    in.last = &b;
    in.recorded = recorded;
    return SummaryText(in);
  }
  std::string Metrics() const {
    RecordingInfo info;
    info.recorded = recorded;
    OpenMetricsExport exporter(info, OpenMetricsOptions{});
    exporter.OnSample(a);
    exporter.OnSample(b);
    StringOutputStream out;
    exporter.Write(out);
    return out.data();
  }
};

}  // namespace

TEST_CASE("vmstat and netstat: sar's rates, counts over the interval, levels") {
  const Activity act;
  const std::string line = act.Play();
  CHECK(PlayMember(line, "vmstat").starts_with(
      R"({"pgpginps":1024.00,"pgpgoutps":0.00,"faultps":20000.00,"majfltps":5.00,)"));
  CHECK(PlayMember(line, "vmstat").ends_with(R"("oom_kills":4})"));
  CHECK(PlayMember(line, "netstat").starts_with(
      R"({"tcp":{"activeps":15.00,"passiveps":10.00,)"));
  CHECK(PlayMember(line, "netstat").find(R"("retransps":3.00,)") != std::string::npos);
  CHECK(PlayMember(line, "netstat").find(R"("curr_estab":5},"udp":{)") != std::string::npos);
  const std::string text = act.Summary();
  CHECK(text.find("* Paging and swapping\n            paged in: 1024.00 kB/s\n") !=
        std::string::npos);
  CHECK(text.find("           OOM kills: 4\n") != std::string::npos);
  CHECK(text.find("* TCP and UDP\n        active opens: 15.00 /s\n") != std::string::npos);
  const std::string csv = act.Csv();
  CHECK(csv.find(",vmstat.pgpginps,vmstat.pgpgoutps,vmstat.faultps,") != std::string::npos);
  CHECK(csv.find(",netstat.tcp.activeps,netstat.tcp.passiveps,") != std::string::npos);
  CHECK(csv.find(",netstat.udp.sndbuferrps") != std::string::npos);
  const std::string om = act.Metrics();
  CHECK(om.find("# TYPE node_vmstat_pgfault gauge\n") != std::string::npos);
  CHECK(om.find("\nnode_vmstat_pgfault 140000 ") != std::string::npos);
  CHECK(om.find("\nnode_netstat_Tcp_ActiveOpens 30 ") != std::string::npos);
  CHECK(om.find("\nnode_netstat_Tcp_CurrEstab 5 ") != std::string::npos);
}

TEST_CASE("vmstat and netstat: what the kernel did not print is in no output") {
  Activity act;
  act.Older();
  const std::string line = act.Play();
  CHECK(line.find("oom_kills") == std::string::npos);
  CHECK(line.find("rcvbuferrps") == std::string::npos);
  CHECK(line.find("sndbuferrps") == std::string::npos);
  CHECK(line.find(R"("idgmerrps":0.00})") != std::string::npos);
  CHECK(act.Summary().find("OOM kills") == std::string::npos);
  CHECK(act.Csv().find("oom_kills") == std::string::npos);
  CHECK(act.Csv().find("rcvbuferrps") == std::string::npos);
  const std::string om = act.Metrics();
  CHECK(om.find("node_vmstat_oom_kill") == std::string::npos);
  CHECK(om.find("node_netstat_Udp_RcvbufErrors") == std::string::npos);
  CHECK(om.find("\nnode_vmstat_pgmajfault 60 ") != std::string::npos);
}

}  // namespace pm::test
