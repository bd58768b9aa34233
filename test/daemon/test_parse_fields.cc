// The fixed-fields parser (daemon/collect/parse_fields.hh) on
// /proc/vmstat, /proc/net/snmp, /proc/net/netstat and /proc/net/sockstat:
// kernels' own text, lines and columns this recorder does not know,
// reordered headers, and the errors.
#include <doctest/doctest.h>

#include <string>

#include "common/error.hh"
#include "daemon/collect/parse_fields.hh"
#include "proto/columns/vmstat.hh"
#include "proto/columns/netstat.hh"
#include "proto/columns/sockstat.hh"
#include "test/daemon/test_util.hh"

using namespace pm;

namespace {

// The fields vmstat's table reads per zone on kernels before 4.8.
constexpr std::string_view kZoned[] = {"pgscan_kswapd", "pgscan_direct", "pgsteal_kswapd",
                                       "pgsteal_direct"};
const FieldMatcher kVmstat(kVmstatFields, kZoned), kNetstat(kNetstatFields),
    kSockstat(kSockstatFields);

// One sample's reading of one file, afresh.
void ParseVmstat(std::string_view text, FieldValues& v) {
  v.Reset(kVmstat.size());
  ParseFields(text, FieldsLayout::kNameValue, kVmstat, v, "/proc/vmstat");
}
// snmp then netstat add into one member, as the collector reads them.
void ParseSnmp(std::string_view text, FieldValues& v, std::string_view source = "/proc/net/snmp") {
  if (v.values.empty()) v.Reset(kNetstat.size());
  ParseFields(text, FieldsLayout::kHeaderPairs, kNetstat, v, source);
}
using VmstatValues = FieldValues;
using NetstatValues = FieldValues;

size_t V(std::string_view name) {
  for (size_t i = 0; i < kVmstatFields.size(); ++i)
    if (kVmstatFields[i] == name) return i;
  FAIL("no vmstat field " << name);
  return 0;
}
size_t N(std::string_view name) {
  for (size_t i = 0; i < kNetstatFields.size(); ++i)
    if (kNetstatFields[i] == name) return i;
  FAIL("no netstat field " << name);
  return 0;
}

}  // namespace

TEST_CASE("ParseVmstat: a 6.x kernel's file; the throttle and per-type lines are not scans") {
  VmstatValues v;
  ParseVmstat(pm::test::ReadFile(pm::test::DataDir() / "proc-small/proc/vmstat"), v);
  CHECK(v.values[V("pgpgin")] == 11609637);
  CHECK(v.values[V("pgpgout")] == 62413096);
  CHECK(v.values[V("pgfault")] == 705144089);
  CHECK(v.values[V("pgmajfault")] == 28457);
  CHECK(v.values[V("pgfree")] == 705217961);
  for (uint8_t present : v.present) CHECK(present);
  // pgscan_direct_throttle counts throttling, pgscan_anon and _file the
  // same pages by type: neither adds to pgscan_direct.
  ParseVmstat("pgscan_direct 5\npgscan_direct_throttle 7\npgscan_anon 3\npgscan_file 2\n"
              "pgscan_khugepaged 9\n",
              v);
  CHECK(v.values[V("pgscan_direct")] == 5);
  CHECK_FALSE(v.present[V("oom_kill")]);
}

TEST_CASE("ParseVmstat: a 3.x kernel's per-zone scans summed, no oom_kill") {
  VmstatValues v;
  ParseVmstat(pm::test::ReadFile(pm::test::DataDir() / "proc-old/proc/vmstat"), v);
  CHECK(v.values[V("pgscan_kswapd")] == 4010);
  CHECK(v.values[V("pgscan_direct")] == 500);
  CHECK(v.values[V("pswpin")] == 17);
  CHECK(v.values[V("pswpout")] == 42);
  CHECK(v.present[V("pgscan_kswapd")]);
  // pgsteal_normal (no kswapd/direct split then) is not pgsteal_kswapd.
  CHECK_FALSE(v.present[V("pgsteal_kswapd")]);
  CHECK_FALSE(v.present[V("oom_kill")]);
  // Reused: what the last text had is not kept.
  ParseVmstat("oom_kill 3\n", v);
  CHECK(v.values[V("oom_kill")] == 3);
  CHECK_FALSE(v.present[V("pgpgin")]);
  CHECK(v.values[V("pgscan_kswapd")] == 0);
}

TEST_CASE("ParseVmstat: a recorded name without a number is an error naming the line") {
  VmstatValues v;
  CHECK_THROWS_WITH_AS(ParseVmstat("nr_free_pages 1\npgfault x\n", v),
                       "/proc/vmstat:2: expected an unsigned number for pgfault", FormatError);
  CHECK_THROWS_WITH_AS(ParseVmstat("oom_kill\n", v),
                       "/proc/vmstat:1: expected an unsigned number for oom_kill", FormatError);
  ParseVmstat("nr_weird x\n\nprotection_garbage\n", v);  // unknown names: skipped
}

TEST_CASE("ParseSnmp: a 6.x kernel's snmp and netstat, by name") {
  NetstatValues v;
  ParseSnmp("Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails "
            "EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts InCsumErrors\n"
            "Tcp: 1 200 120000 -1 2752 2006 703 0 3 28792 26990 2 0 703 0\n"
            "Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors "
            "InCsumErrors IgnoredMulti MemErrors\n"
            "Udp: 108 1 2 111 3 4 0 0 0\n"
            "UdpLite: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors "
            "InCsumErrors IgnoredMulti MemErrors\n"
            "UdpLite: 9 9 9 9 9 9 9 9 9\n",
            v);
  ParseSnmp(pm::test::ReadFile(pm::test::DataDir() / "proc-small/proc/net/netstat"), v,
            "/proc/net/netstat");
  CHECK(v.values[N("Tcp_ActiveOpens")] == 2752);
  CHECK(v.values[N("Tcp_PassiveOpens")] == 2006);
  CHECK(v.values[N("Tcp_AttemptFails")] == 703);
  CHECK(v.values[N("Tcp_CurrEstab")] == 3);
  CHECK(v.values[N("Tcp_RetransSegs")] == 2);
  CHECK(v.values[N("Tcp_OutRsts")] == 703);
  CHECK(v.values[N("Udp_InDatagrams")] == 108);  // not UdpLite's
  CHECK(v.values[N("Udp_NoPorts")] == 1);
  CHECK(v.values[N("Udp_SndbufErrors")] == 4);
  for (uint8_t present : v.present) CHECK(present);
}

TEST_CASE("ParseSnmp: columns found by name whatever their order; unknown ones skipped") {
  NetstatValues v;
  ParseSnmp("Tcp: NewColumn OutRsts ActiveOpens MaxConn\nTcp: 77 5 9 -1\n"
            "Future: A B\nFuture: -3 x\n",
            v);
  CHECK(v.values[N("Tcp_ActiveOpens")] == 9);
  CHECK(v.values[N("Tcp_OutRsts")] == 5);
  CHECK_FALSE(v.present[N("Tcp_PassiveOpens")]);
  CHECK_FALSE(v.present[N("Udp_InDatagrams")]);
  // An old kernel's Udp line of four.
  NetstatValues old;
  ParseSnmp(pm::test::ReadFile(pm::test::DataDir() / "proc-old/proc/net/snmp"), old);
  CHECK(old.values[N("Tcp_ActiveOpens")] == 1500);
  CHECK(old.values[N("Udp_OutDatagrams")] == 12100);
  CHECK_FALSE(old.present[N("Udp_RcvbufErrors")]);
  CHECK_FALSE(old.present[N("TcpExt_ListenDrops")]);
}

TEST_CASE("ParseSnmp: a header without its values, or a bad value, is an error") {
  NetstatValues v;
  CHECK_THROWS_WITH_AS(ParseSnmp("Tcp: ActiveOpens PassiveOpens\n", v),
                       "/proc/net/snmp:1: expected the values line of Tcp after its names",
                       FormatError);
  CHECK_THROWS_WITH_AS(ParseSnmp("Tcp: ActiveOpens\nUdp: 1\n", v),
                       "/proc/net/snmp:2: expected the values line of Tcp after its names",
                       FormatError);
  CHECK_THROWS_WITH_AS(ParseSnmp("Tcp: ActiveOpens PassiveOpens\nTcp: 1\n", v),
                       "/proc/net/snmp:2: Tcp: fewer values than names", FormatError);
  CHECK_THROWS_WITH_AS(ParseSnmp("Tcp: MaxConn ActiveOpens\nTcp: -1 -2\n", v),
                       "/proc/net/snmp:2: expected an unsigned number for Tcp ActiveOpens",
                       FormatError);
}

TEST_CASE("sockstat: sar -n SOCK's counts, by name; a kernel without a line lacks its field") {
  FieldValues v;
  v.Reset(kSockstat.size());
  ParseFields(pm::test::ReadFile(pm::test::DataDir() / "proc-small/proc/net/sockstat"),
              FieldsLayout::kInlinePairs, kSockstat, v, "/proc/net/sockstat");
  CHECK(v.values == std::vector<uint64_t>{912, 41, 7, 1, 2, 133});
  for (uint8_t present : v.present) CHECK(present);
  v.Reset(kSockstat.size());
  ParseFields("sockets: used 3\nTCP: tw 1 inuse 2 future 9\nNEW: inuse x\n",
              FieldsLayout::kInlinePairs, kSockstat, v, "/proc/net/sockstat");
  CHECK(v.values == std::vector<uint64_t>{3, 2, 0, 0, 0, 1});
  CHECK(v.present == std::vector<uint8_t>{1, 1, 0, 0, 0, 1});
  v.Reset(kSockstat.size());
  CHECK_THROWS_WITH_AS(ParseFields("TCP: inuse -1\n", FieldsLayout::kInlinePairs, kSockstat, v,
                                   "/proc/net/sockstat"),
                       "/proc/net/sockstat:1: expected an unsigned number for TCP inuse",
                       FormatError);
}
