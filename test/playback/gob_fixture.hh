// A gob stream shaped like the newer PerfMonger's ("perfmonger." type
// names), with StatRecord's fields reordered and an unknown one added, for
// what busy100.pgr lacks: Interrupt, Mem, version-2 times.
#pragma once

#include <cstdint>
#include <string>

#include "test/playback/gob_builder.hh"

namespace pm::test {

// Type ids, from 65 as Go assigns them.
enum : int64_t {
  kCommonHeader = 65,
  kTime,
  kLinuxHeader,
  kDeviceMap,
  kStrings,
  kDevice,
  kStatRecord,
  kCpuStat,
  kCoreStat,
  kCoreStats,
  kIntrStat,
  kIntrEntries,
  kIntrEntry,
  kInts,
  kProcStat,
  kMemStat,
};
inline const GobFields kCoreFields = {
    {"User", 2},   {"Nice", 2},     {"Sys", 2},     {"Idle", 2},
    {"Iowait", 2}, {"Hardirq", 2},  {"Softirq", 2}, {"Steal", 2},
    {"Guest", 2},  {"GuestNice", 2}};
inline const char* const kMemFieldNames[] = {
    "MemTotal",        "MemFree",        "Buffers",        "Cached",
    "SwapCached",      "Active",         "Inactive",       "SwapTotal",
    "SwapFree",        "Dirty",          "Writeback",      "AnonPages",
    "Mapped",          "Shmem",          "Slab",           "SReclaimable",
    "SUnreclaim",      "KernelStack",    "PageTables",     "NFS_Unstable",
    "Bounce",          "CommitLimit",    "Committed_AS",   "AnonHugePages",
    "HugePages_Total", "HugePages_Free", "HugePages_Rsvd", "HugePages_Surp",
    "Hugepagesize"};
// Field numbers in kStatRecord.
enum { kRecMem, kRecExtra, kRecProc, kRecTime, kRecInterrupt, kRecCpu };

// CommonHeader, LinuxHeader (one device in its map), and StatRecord's types.
inline GobStream NewerHeaders() {
  GobStream s;
  s.DefineStruct(kCommonHeader, "perfmonger.CommonHeader",
                 {{"Platform", 2}, {"Hostname", 6}, {"StartTime", kTime}});
  s.DefineGobEncoder(kTime, "Time");
  s.Value(kCommonHeader, GobStruct()
                             .Field(0, GobInt(1))
                             .Field(1, GobString("db1"))
                             .Field(2, GobTime(1'700'000'000, 250, 2))
                             .End());
  s.DefineStruct(kLinuxHeader, "perfmonger.LinuxHeader",
                 {{"Devices", kDeviceMap}, {"DevsParts", kStrings}});
  s.DefineMap(kDeviceMap, "map[string]perfmonger.LinuxDevice", 6, kDevice);
  s.DefineStruct(kDevice, "perfmonger.LinuxDevice",
                 {{"Name", 6}, {"Parts", kStrings}});
  s.DefineSlice(kStrings, "[]string", 6);
  std::string device = GobStruct()
                           .Field(0, GobString("sda"))
                           .Field(1, GobSlice({GobString("sda1")}))
                           .End();
  s.Value(kLinuxHeader,
          GobStruct()
              .Field(0, GobSlice({GobString("sda") + device}))
              .Field(1, GobSlice({GobString("sda"), GobString("sda1")}))
              .End());
  s.DefineStruct(kStatRecord, "perfmonger.StatRecord",
                 {{"Mem", kMemStat},
                  {"Extra", kDeviceMap},
                  {"Proc", kProcStat},
                  {"Time", kTime},
                  {"Interrupt", kIntrStat},
                  {"Cpu", kCpuStat}});
  s.DefineStruct(
      kCpuStat, "perfmonger.CpuStat",
      {{"All", kCoreStat}, {"NumCore", 2}, {"CoreStats", kCoreStats}});
  s.DefineStruct(kCoreStat, "perfmonger.CpuCoreStat", kCoreFields);
  s.DefineSlice(kCoreStats, "[]perfmonger.CpuCoreStat", kCoreStat);
  s.DefineStruct(kIntrStat, "perfmonger.InterruptStat",
                 {{"NumEntries", 3}, {"Entries", kIntrEntries}});
  s.DefineSlice(kIntrEntries, "[]*perfmonger.InterruptStatEntry", kIntrEntry);
  s.DefineStruct(kIntrEntry, "perfmonger.InterruptStatEntry",
                 {{"IrqNo", 2},
                  {"IrqType", 6},
                  {"NumCore", 2},
                  {"IntrCounts", kInts},
                  {"Descr", 6}});
  s.DefineSlice(kInts, "[]int", 2);
  s.DefineStruct(kProcStat, "perfmonger.ProcStat",
                 {{"ContextSwitch", 2}, {"Fork", 2}});
  GobFields mem;
  for (const char* name : kMemFieldNames) mem.emplace_back(name, 2);
  s.DefineStruct(kMemStat, "perfmonger.MemStat", mem);
  return s;
}

// A record with every known field but Disk and Net (busy100.pgr has those).
inline std::string FullRecord() {
  std::string core =
      GobStruct().Field(0, GobInt(10)).Field(3, GobInt(20)).End();
  std::string all = GobStruct().Field(0, GobInt(11)).Field(9, GobInt(7)).End();
  std::string cpu = GobStruct()
                        .Field(0, all)
                        .Field(1, GobInt(1))
                        .Field(2, GobSlice({core}))
                        .End();
  std::string irq24 = GobStruct()
                          .Field(0, GobInt(24))
                          .Field(2, GobInt(2))
                          .Field(3, GobSlice({GobInt(3), GobInt(0)}))
                          .Field(4, GobString("eth0"))
                          .End();
  std::string nmi = GobStruct()
                        .Field(1, GobString("NMI"))
                        .Field(3, GobSlice({GobInt(1), GobInt(2)}))
                        .End();
  std::string intr =
      GobStruct().Field(0, GobUint(2)).Field(1, GobSlice({irq24, nmi})).End();
  std::string mem = GobStruct()
                        .Field(0, GobInt(1000))
                        .Field(22, GobInt(55))
                        .Field(27, GobInt(3))
                        .Field(28, GobInt(2048))
                        .End();
  return GobStruct()
      .Field(kRecMem, mem)
      .Field(kRecExtra, GobSlice({GobString("k") + GobStruct().End()}))
      .Field(kRecProc,
             GobStruct().Field(0, GobInt(100)).Field(1, GobInt(7)).End())
      .Field(kRecTime, GobTime(1'700'000'001, 5, 2))
      .Field(kRecInterrupt, intr)
      .Field(kRecCpu, cpu)
      .End();
}

}  // namespace pm::test
