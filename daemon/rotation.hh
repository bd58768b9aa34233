// Rotation (`record --rotate daily|hourly|SIZE -l DIR/`): one recording
// file per period in DIR, named by the local date and time its first
// sample was taken, as sysstat's saDD and atop's atop_YYYYMMDD are:
//
//   daily    perfmonger-YYYYMMDD.pgr.zst
//   hourly   perfmonger-YYYYMMDD-HH.pgr.zst
//   SIZE     perfmonger-YYYYMMDD-HHMMSS.pgr.zst (a new file once one has
//            SIZE bytes)
//
// A name already taken (the recorder restarted that day, a reopen after
// SIGHUP or a full disk) gets the first free `_N` before `.pgr`. The
// extension is `.pgr.zst`, `.pgr` with --no-gzip. Retention
// (daemon/retention.hh) deletes only names of this pattern.
//
// Pure: times in, names and instants out; the local time zone is the
// process's (TZ).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pm {

enum class RotateEvery { kNever, kDay, kHour, kSize };

struct RotatePolicy {
  RotateEvery every = RotateEvery::kNever;
  uint64_t size_bytes = 0;     // kSize: a file reaching this starts the next
  int64_t keep_ns = 0;         // retention by age (0: none)
  uint64_t keep_bytes = 0;     // retention by total size (0: none)
  bool on() const { return every != RotateEvery::kNever; }
};

// "daily", "hourly", or a size ("64M", "1G", "500k", bytes without a
// unit; powers of 1024). nullopt: none of these.
std::optional<RotatePolicy> ParseRotate(std::string_view text);
// A size as ParseRotate takes it; nullopt if it is not one (or is zero).
std::optional<uint64_t> ParseSize(std::string_view text);

// The file name (no directory) of a file whose first sample is at `t_ns`;
// `suffix` > 0 adds `_suffix`.
std::string RotatedName(RotateEvery every, int64_t t_ns, bool plain, int suffix = 0);

// The first instant after `t_ns` that starts a new period (the next local
// midnight or hour), or INT64_MAX when periods are sizes.
int64_t NextPeriodStart(RotateEvery every, int64_t t_ns);

// A name RotatedName() makes, parsed back: the local instant in the name
// (to the second) and its suffix. nullopt for anything else.
struct RotatedFile {
  int64_t start_ns = 0;
  int suffix = 0;
};
std::optional<RotatedFile> ParseRotatedName(std::string_view name);

}  // namespace pm
