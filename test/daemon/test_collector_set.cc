#include <doctest/doctest.h>

#include <string>
#include <system_error>

#include "common/error.hh"
#include "daemon/collect/collector_set.hh"
#include "test/daemon/test_util.hh"
#include "proto/columns/disk.hh"

using pm::CollectorOptions;
using pm::CollectorSet;
using pm::test::DataDir;
using pm::test::OpenDir;
using pm::test::TempDir;
using pm::test::WriteFile;

namespace {

const std::string kCpuDescr =
    R"("cpu":{"fields":["user","nice","system","idle","iowait","irq","softirq","steal",)"
    R"("guest","guest_nice"],"cores":[0,1],"sources":[{"fields":["user","nice","system",)"
    R"("idle","iowait","irq","softirq","steal","guest","guest_nice"],"rows":["all","cores"],)"
    R"("file":"/proc/stat","resolution_ns":10000000}]},"proc":{"fields":["ctxt","processes"]})";
const std::string kDiskFields =
    R"("fields":["reads","read_merges","read_sectors","read_ms","writes","write_merges",)"
    R"("write_sectors","write_ms","in_flight","io_ms","weighted_io_ms"])";
const std::string kNetDescr =
    R"("net":{"fields":["rx_bytes","rx_packets","rx_errs","rx_drop","rx_fifo","rx_frame",)"
    R"("rx_compressed","rx_multicast","tx_bytes","tx_packets","tx_errs","tx_drop","tx_fifo",)"
    R"("tx_colls","tx_carrier","tx_compressed"],"devices":["lo","eth0","we\"ird"]})";
const std::string kMemDescr =
    R"("mem":{"fields":["MemTotal","MemFree","MemAvailable","Buffers","Cached","SwapCached",)"
    R"("Active","Inactive","SwapTotal","SwapFree","Dirty","Writeback","AnonPages","Mapped",)"
    R"("Shmem","Slab","SReclaimable","SUnreclaim","KernelStack","PageTables","NFS_Unstable",)"
    R"("Bounce","CommitLimit","Committed_AS","AnonHugePages","HugePages_Total",)"
    R"("HugePages_Free","HugePages_Rsvd","HugePages_Surp","Hugepagesize"]})";

const std::string kCpuSample =
    R"(,"cpu":[[300,10,200,5000,40,5,6,7,8,9],[100,5,100,2500,20,2,3,3,4,4],)"
    R"([200,5,100,2500,20,3,3,4,4,5]],"proc":[987654,4321])";
const std::string kVda = "[29486,6781,2265906,11163,2498,5654,393152,1278,0,4924,12690]";
const std::string kCciss = "[10,0,80,5,20,0,160,9,1,12,14]";
const std::string kNetSample =
    R"(,"net":[[3267,29,0,0,0,0,0,0,3267,29,0,0,0,0,0,0],)"
    R"([18719190,503,1,2,3,4,5,6,22793,264,7,8,9,10,11,12],)"
    R"([1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]])";
const std::string kMemSample =
    R"(,"mem":[1000,1001,1002,1003,1004,1005,1006,1007,1008,1009,1010,1011,1012,1013,1014,)"
    R"(1015,1016,1017,1018,1019,1020,1021,1022,1023,1024,1025,1026,1027,1028,1029])";

std::string Sample(CollectorSet& set) {
  std::string line = "{\"t\":1";
  set.AppendSample(line);
  return line.substr(6);
}

CollectorSet Open(const std::filesystem::path& root, const CollectorOptions& opts = {}) {
  auto fd = OpenDir(root);
  return CollectorSet(fd.Get(), opts);  // the set keeps its own fds, not the root
}

std::string Devices(const CollectorSet& set) {
  std::string d = set.DescribeJson();
  size_t at = d.find("\"devices\":");  // the disk collector comes first
  return d.substr(at + 10, d.find(']', at) - at - 9);
}

CollectorOptions DiskOnly(std::vector<std::string> disks = {}) {
  CollectorOptions o;
  o.on("cpu") = o.on("net") = o.on("mem") = false;
  o.disks = std::move(disks);
  return o;
}

}  // namespace

TEST_CASE("CollectorSet: header and sample of a small machine, byte for byte") {
  CollectorSet set = Open(DataDir() / "proc-small");
  CHECK(set.num_core() == 2);
  CHECK(set.DescribeJson() == "{" + kCpuDescr + R"(,"disk":{)" + kDiskFields +
                                  R"(,"devices":["vda","cciss/c0d0"]},)" + kNetDescr + "," +
                                  kMemDescr + "}");
  std::string want =
      kCpuSample + R"(,"disk":[)" + kVda + "," + kCciss + "]" + kNetSample + kMemSample;
  CHECK(Sample(set) == want);
  CHECK(Sample(set) == want);
}

TEST_CASE("CollectorSet: interrupts when asked for") {
  CollectorOptions opts;
  opts.on("cpu") = opts.on("disk") = opts.on("net") = opts.on("mem") = false;
  opts.on("intr") = true;
  CollectorSet set = Open(DataDir() / "proc-small", opts);
  CHECK(set.num_core() == 2);
  CHECK(set.DescribeJson() ==
        R"({"intr":{"cpus":2,"rows":[{"irq":"0","descr":"IO-APIC 2-edge timer"},)"
        R"({"irq":"24","descr":"IO-APIC 5-edge ACPI:Ged"},)"
        R"({"irq":"NMI","descr":"Non-maskable interrupts"},)"
        R"({"irq":"LOC","descr":"Local timer interrupts"},)"
        R"({"irq":"ERR","descr":""},{"irq":"MIS","descr":""}]}})");
  CHECK(Sample(set) == R"(,"intr":[[44,0],[1,0],[0,0],[12345,67890],[3,0],[0,0]])");
}

TEST_CASE("CollectorSet: every collector off still counts the cores") {
  CollectorOptions opts;
  opts.on("cpu") = opts.on("disk") = opts.on("net") = opts.on("mem") = false;
  CollectorSet set = Open(DataDir() / "proc-64cpu", opts);
  CHECK(set.num_core() == 64);
  CHECK(set.DescribeJson() == "{}");
  CHECK(Sample(set).empty());
}

TEST_CASE("CollectorSet: a 64-CPU machine") {
  CollectorOptions opts;
  opts.on("disk") = opts.on("net") = opts.on("mem") = false;
  CollectorSet set = Open(DataDir() / "proc-64cpu", opts);
  CHECK(set.num_core() == 64);
  std::string cores;
  for (int i = 0; i < 64; ++i) {
    if (i != 0) cores += ',';
    cores += std::to_string(i);
  }
  CHECK(set.DescribeJson().find(R"("cores":[)" + cores + "],\"sources\":") != std::string::npos);
  std::string s = Sample(set);
  CHECK(s.starts_with(R"(,"cpu":[[3045487,3028971,3317124,3432461,3385318,3158080,2889975,)"
                      R"(3129073,0,0],[63411,17364,83604,81345,53947,71275,91028,3208,0,0],)"));
  CHECK(s.ends_with(R"([71114,82035,39102,20288,47676,79070,51245,60165,0,0]],)"
                    R"("proc":[1234567890,98765])"));
}

TEST_CASE("CollectorSet: disk selection") {
  auto root = DataDir() / "proc-small";
  // Whole devices with I/O: vda1 is a partition, loop0 and vdb are idle,
  // cciss/c0d0 is found as /sys/block/cciss!c0d0.
  CHECK(Devices(Open(root, DiskOnly())) == R"(["vda","cciss/c0d0"])");
  CHECK(Devices(Open(root, DiskOnly({"vda1"}))) == R"(["vda1"])");
  CHECK(Devices(Open(root, DiskOnly({"vdb"}))) == R"(["vdb"])");
  CHECK(Devices(Open(root, DiskOnly({"cciss/c0d0", "vdb", "vda", "vdb"}))) ==
        R"(["vda","vdb","cciss/c0d0"])");
  // Named below the tree given (--root), not as the machine's /proc.
  std::string diskstats = (std::filesystem::canonical(root) / "proc/diskstats").string();
  CHECK_THROWS_WITH_AS(Open(root, DiskOnly({"vda", "sdz"})),
                       ("no disk named 'sdz' in " + diskstats + "; name one listed there").c_str(),
                       pm::UsageError);
  CHECK_THROWS_AS(Open(root, DiskOnly({"vda,vdb"})), pm::UsageError);

  CollectorSet idle = Open(root, DiskOnly({"vdb", "loop0"}));
  CHECK(Sample(idle) == R"(,"disk":[[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],)"
                        R"([0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]])");
}

TEST_CASE("CollectorSet: discards and flushes where every chosen device's line has them") {
  auto root = DataDir() / "proc-small";
  CollectorSet vda = Open(root, DiskOnly({"vda"}));
  CHECK(vda.DescribeJson().find(R"("weighted_io_ms","discards","discard_merges",)"
                                R"("discard_sectors","discard_ms","flushes","flush_ms"])") !=
        std::string::npos);
  CHECK(Sample(vda) ==
        R"(,"disk":[[29486,6781,2265906,11163,2498,5654,393152,1278,0,4924,12690,3850,38,)"
        R"(102296,239,264,9]])");
  // cciss/c0d0's line has the 11 of kernels before 4.18: neither is
  // declared, so a reader shows them absent, not zero.
  CollectorSet both = Open(root, DiskOnly({"vda", "cciss/c0d0"}));
  CHECK(both.DescribeJson().find(R"("weighted_io_ms"],"devices")") != std::string::npos);
  CHECK(Sample(both) == R"(,"disk":[[29486,6781,2265906,11163,2498,5654,393152,1278,0,4924,)"
                        R"(12690],[10,0,80,5,20,0,160,9,1,12,14]])");
  // 15 numbers (4.18 to 5.4): the discards alone.
  TempDir tree("proc-small");
  WriteFile(tree.path() / "proc/diskstats", "8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n");
  CollectorSet sda = Open(tree.path(), DiskOnly({"sda"}));
  CHECK(sda.DescribeJson().find(R"("discard_ms"],"devices")") != std::string::npos);
  CHECK(Sample(sda) == R"(,"disk":[[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]])");
}

TEST_CASE("CollectorSet: an old kernel's formats") {
  auto root = DataDir() / "proc-old";
  CollectorSet set = Open(root);
  CHECK(Devices(set) == R"(["hda"])");
  std::string s = Sample(set);
  CHECK(s.starts_with(R"(,"cpu":[[1000,20,300,40000,50,6,7,0,0,0],)"
                      R"([500,10,150,20000,25,3,4,0,0,0],[500,10,150,20000,25,3,3,0,0,0]],)"
                      R"("proc":[5555,777],"disk":[[446216,784926,9550688,4382310,424847,)"
                      R"(312726,5922052,19310380,0,3376340,23705160]],"net":[[560032,)"));
  CHECK(s.ends_with(R"(,"mem":[1034680,16956,0,82132,611720,0,541200,388244,2031608,)"
                    R"(2031608,40,0,0,278888,0,69468,0,0,0,3208,0,0,2548948,462352,0,0,0,)"
                    R"(0,0,2048])"));
  CollectorSet parts = Open(root, DiskOnly({"hda2", "hda1"}));
  CHECK(Sample(parts) ==
        R"(,"disk":[[35486,0,283888,0,4321,0,34568,0,0,0,0],[1382,0,11056,0,0,0,0,0,0,0,0]])");
}

TEST_CASE("CollectorSet: rows that vanish are null, rows that appear are ignored") {
  TempDir tree("proc-small");
  CollectorOptions opts;
  opts.on("intr") = true;
  CollectorSet set = Open(tree.path(), opts);
  std::string before = Sample(set);

  WriteFile(tree.path() / "proc/diskstats",
            " 104       0 cciss/c0d0 11 0 80 5 20 0 160 9 1 12 14\n"
            "   8       0 sda 1 2 3 4 5 6 7 8 9 10 11\n");
  WriteFile(tree.path() / "proc/stat",
            "cpu  1 1 1 1 1 1 1 1 1 1\ncpu0 2 2 2 2 2 2 2 2 2 2\n"
            "cpu5 3 3 3 3 3 3 3 3 3 3\nctxt 8\nprocesses 9\n");
  WriteFile(tree.path() / "proc/net/dev",
            "h1\nh2\n  eth0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"
            "  eth1: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n");
  WriteFile(tree.path() / "proc/interrupts",
            "  CPU0 CPU1\nLOC: 5 6 Local timer interrupts\n  0: 45 1 timer\nNEW: 1 1 x\n");
  std::string after = Sample(set);
  CHECK(after ==
        R"(,"cpu":[[1,1,1,1,1,1,1,1,1,1],[2,2,2,2,2,2,2,2,2,2],null],"proc":[8,9],)"
        R"("intr":[[45,1],null,null,[5,6],null,null],)"
        R"("disk":[null,[11,0,80,5,20,0,160,9,1,12,14]],)"
        R"("net":[null,[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16],null])" +
            kMemSample);

  // A CPU column that came or went: no row lines up with the header any more.
  WriteFile(tree.path() / "proc/interrupts", "  CPU0 CPU1 CPU2\nLOC: 5 6 7 x\n");
  CHECK(Sample(set).find(R"(,"intr":[null,null,null,null,null,null],)") != std::string::npos);
}

TEST_CASE("CollectorSet: a meminfo that vanishes is null, values print unsigned") {
  TempDir tree("proc-small");
  CollectorSet set = Open(tree.path());
  WriteFile(tree.path() / "proc/meminfo", "");
  CHECK(Sample(set).ends_with(R"(,"mem":null)"));
  WriteFile(tree.path() / "proc/meminfo", "Unrecorded: 5 kB\n");
  CHECK(Sample(set).ends_with(R"(,"mem":null)"));
  WriteFile(tree.path() / "proc/meminfo", "MemTotal: 18446744073709551000 kB\n");
  CHECK(Sample(set).ends_with(R"(,"mem":[18446744073709551000,0,0,0,0,0,0,0,0,0,0,0,0,)"
                              R"(0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0])"));
}

TEST_CASE("CollectorSet: a failed read leaves the line untouched") {
  TempDir tree("proc-small");
  CollectorSet set = Open(tree.path());
  WriteFile(tree.path() / "proc/meminfo", "MemTotal: many kB\n");
  std::string line = "{\"t\":1";
  std::string meminfo = (std::filesystem::canonical(tree.path()) / "proc/meminfo").string();
  CHECK_THROWS_WITH_AS(set.AppendSample(line),
                       (meminfo + ":1: expected an unsigned integer after 'MemTotal:'").c_str(),
                       pm::FormatError);
  CHECK(line == "{\"t\":1");
}

TEST_CASE("CollectorSet: a missing or malformed file at start") {
  TempDir tree("proc-small");
  std::filesystem::remove(tree.path() / "proc/interrupts");
  CHECK_NOTHROW(Open(tree.path()));  // interrupts are off by default
  CollectorOptions opts;
  opts.on("intr") = true;
  std::string interrupts =
      (std::filesystem::canonical(tree.path()) / "proc/interrupts").string();
  CHECK_THROWS_WITH_AS(Open(tree.path(), opts),
                       ("cannot open " + interrupts + ": No such file or directory").c_str(),
                       std::system_error);
  WriteFile(tree.path() / "proc/diskstats", "8 0 sda 1 2\n");
  CHECK_THROWS_AS(Open(tree.path()), pm::FormatError);
}

TEST_CASE("CollectorSet: the real /proc") {
  CollectorOptions opts;
  opts.on("intr") = std::filesystem::exists("/proc/interrupts");
  CollectorSet set = Open("/", opts);
  CHECK(set.num_core() > 0);
  std::string s = Sample(set);
  CHECK(s.starts_with(",\"cpu\":[["));
  CHECK(s.find(",\"mem\":[") != std::string::npos);
}

namespace {

CollectorOptions Only(std::string_view collector) {
  CollectorOptions o;
  o.on("cpu") = o.on("disk") = o.on("net") = o.on("mem") = false;
  o.on(collector) = true;
  return o;
}

}  // namespace

TEST_CASE("CollectorSet: vmstat declares the fields its kernel prints") {
  CollectorSet now = Open(DataDir() / "proc-small", Only("vmstat"));
  CHECK(now.DescribeJson() ==
        R"({"vmstat":{"fields":["pgpgin","pgpgout","pswpin","pswpout","pgfault",)"
        R"("pgmajfault","pgfree","pgscan_kswapd","pgscan_direct","pgsteal_kswapd",)"
        R"("pgsteal_direct","oom_kill"]}})");
  CHECK(Sample(now) ==
        R"(,"vmstat":[11609637,62413096,0,0,705144089,28457,705217961,0,0,0,0,0])");
  // A 3.x kernel: per-zone scans summed; no pgsteal_kswapd/direct, no oom_kill.
  CollectorSet old = Open(DataDir() / "proc-old", Only("vmstat"));
  CHECK(old.DescribeJson() ==
        R"({"vmstat":{"fields":["pgpgin","pgpgout","pswpin","pswpout","pgfault",)"
        R"("pgmajfault","pgfree","pgscan_kswapd","pgscan_direct"]}})");
  CHECK(Sample(old) == R"(,"vmstat":[4774926,2961026,17,42,8800000,2200,9900000,4010,500])");
  // A tree without the file (stat turns the collector on for every root).
  TempDir bare("proc-small");
  std::filesystem::remove(bare.path() / "proc/vmstat");
  CollectorSet none = Open(bare.path(), Only("vmstat"));
  CHECK(none.DescribeJson() == R"({"vmstat":{"fields":[]}})");
  CHECK(Sample(none) == R"(,"vmstat":null)");
}

TEST_CASE("CollectorSet: sockstat, levels of the lines its kernel prints; null without it") {
  CollectorSet now = Open(DataDir() / "proc-small", Only("sockstat"));
  CHECK(now.DescribeJson() ==
        R"({"sockstat":{"fields":["sockets_used","TCP_inuse","UDP_inuse","RAW_inuse",)"
        R"("FRAG_inuse","TCP_tw"]}})");
  CHECK(Sample(now) == R"(,"sockstat":[912,41,7,1,2,133])");
  TempDir bare("proc-small");
  std::filesystem::remove(bare.path() / "proc/net/sockstat");
  CollectorSet none = Open(bare.path(), Only("sockstat"));
  CHECK(Sample(none) == R"(,"sockstat":null)");
}

TEST_CASE("CollectorSet: netstat from snmp and netstat, by name") {
  CollectorSet old = Open(DataDir() / "proc-old", Only("netstat"));
  CHECK(old.DescribeJson() ==
        R"({"netstat":{"fields":["Tcp_ActiveOpens","Tcp_PassiveOpens","Tcp_AttemptFails",)"
        R"("Tcp_EstabResets","Tcp_InSegs","Tcp_OutSegs","Tcp_RetransSegs","Tcp_InErrs",)"
        R"("Tcp_OutRsts","Udp_InDatagrams","Udp_OutDatagrams","Udp_NoPorts","Udp_InErrors",)"
        R"("Tcp_CurrEstab"]}})");
  CHECK(Sample(old) ==
        R"(,"netstat":[1500,320,12,7,150000,140000,85,0,33,12000,12100,14,0,4])");
  CollectorSet now = Open(DataDir() / "proc-small", Only("netstat"));
  CHECK(now.DescribeJson().find(R"("TcpExt_ListenOverflows","TcpExt_ListenDrops",)"
                                R"("Tcp_CurrEstab"]}})") != std::string::npos);
  TempDir bad("proc-small");
  WriteFile(bad.path() / "proc/net/snmp", "Tcp: ActiveOpens\n");
  CHECK_THROWS_AS(Open(bad.path(), Only("netstat")), pm::FormatError);
}
