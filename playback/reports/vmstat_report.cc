// The vmstat collector (member "vmstat": /proc/vmstat's paging and
// swapping counters) in every output, as sar -B and -W name them:
//   play     "vmstat":{"pgpginps" "pgpgoutps" (kB/s) "faultps" "majfltps"
//            "pgfreeps" "pgscankps" "pgscandps" "pgstealkps" "pgstealdps" "pswpinps"
//            "pswpoutps" (per second) "oom_kills" (over the interval)}
//   summary  "Paging and swapping"; --json its "vmstat" over the span
//   csv      vmstat.<key>
//   metrics  node_vmstat_<field> (node_exporter's names; gauges, as its
//            are untyped)
//   plot     paging.dat; chart paging
// Only the fields the recording's kernel printed (oom_kill since 4.13).
#include "playback/reports/field_rates.hh"
#include "playback/reports/plot_chart.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/columns/vmstat.hh"

namespace pm {
namespace {

const size_t kMember = MemberIndexOf("vmstat");
enum VmstatField { kPgpgin, kPgpgout, kPswpin, kPswpout, kFault, kMajflt, kFree,
                   kScanK, kScanD, kStealK, kStealD, kOomKill };
static_assert(kVmstatFields[kOomKill] == "oom_kill" && kVmstatFields[kStealK] == "pgsteal_kswapd");

using enum RateKind;
// sar -B's pgsteal/s is both pgsteal counters; here each is its own key.
constexpr RateKey kKeys[] = {
    {"pgpginps", kPgpgin, kPerSecond, "paged in", "kB/s"},
    {"pgpgoutps", kPgpgout, kPerSecond, "paged out", "kB/s"},
    {"faultps", kFault, kPerSecond, "page faults", "/s"},
    {"majfltps", kMajflt, kPerSecond, "major faults", "/s"},
    {"pgfreeps", kFree, kPerSecond, "pages freed", "/s"},
    {"pgscankps", kScanK, kPerSecond, "scanned by kswapd", "pages/s"},
    {"pgscandps", kScanD, kPerSecond, "scanned directly", "pages/s"},
    {"pgstealkps", kStealK, kPerSecond, "reclaimed by kswapd", "pages/s"},
    {"pgstealdps", kStealD, kPerSecond, "reclaimed directly", "pages/s"},
    {"pswpinps", kPswpin, kPerSecond, "swapped in", "pages/s"},
    {"pswpoutps", kPswpout, kPerSecond, "swapped out", "pages/s"},
    {"oom_kills", kOomKill, kCount, "OOM kills", ""},
};
constexpr RateGroup kGroups[] = {{"", kKeys}};
constexpr const RateKey* kPlotted[] = {&kKeys[0], &kKeys[1], &kKeys[2],
                                       &kKeys[3], &kKeys[9], &kKeys[10]};
// live: vmstat's si/so beside paging in/out and major faults.
constexpr LiveColumn kLiveColumns[] = {{"in", 5, LiveUnit::kBytes},
                                       {"out", 5, LiveUnit::kBytes},
                                       {"majf", 5, LiveUnit::kCount},
                                       {"si", 5, LiveUnit::kCount},
                                       {"so", 5, LiveUnit::kCount}};
constexpr RateColumn kLiveKeys[] = {
    {&kKeys[0], 1024.0}, {&kKeys[1], 1024.0}, {&kKeys[3]}, {&kKeys[9]}, {&kKeys[10]}};
static_assert(std::size(kLiveColumns) == std::size(kLiveKeys));
constexpr RateTable kTable = {&kMember,        "vmstat",  "Paging and swapping", kGroups,
                              "node_vmstat_", kPlotted, "# paging",
                              "paging",       kLiveColumns, kLiveKeys};

using Slots = RateSlots<kTable>;
constexpr PlotFileSpec kFiles[] = {
    {"paging.dat", "# elapsed_time\tpgpgin/s\tpgpgout/s\tfault/s\tmajflt/s\tpswpin/s\tpswpout/s\n"}};
// Two charts, each unit on its own axis: paging in kB/s (left) and
// swapping in pages/s (right); all faults (left) and major faults, a
// thousandth of them or less, on an axis of their own (right).
constexpr ChartLine kPagingLines[] = {{"pgpgin kB/s", "$2"},
                                      {"pgpgout kB/s", "$3"},
                                      {"pswpin/s", "$6", true, Direction::kBoth, true},
                                      {"pswpout/s", "$7", true, Direction::kBoth, true}};
constexpr ChartLine kFaultLines[] = {{"fault/s", "$4"},
                                     {"majflt/s", "$5", true, Direction::kBoth, true}};
constexpr ChartSpec kCharts[] = {
    {.name = "paging", .title = "Paging and swapping (sar -B, -W)", .ylabel = "paged (kB/s)",
     .y2label = "swapped (pages/s)", .lines = kPagingLines},
    {.name = "faults", .title = "Page faults (sar -B)", .ylabel = "faults/s",
     .y2label = "major faults/s", .lines = kFaultLines},
};
constexpr PlotSlot kPlot = {kFiles, Slots::PlotPair, kCharts};

}  // namespace

extern const Report kVmstatReport;
constexpr Report kVmstatReport = Slots::Report(&kPlot);

}  // namespace pm
