// What a report's `stats` slot (playback/reports/report.hh) gives `summary
// --stats` for one pair of consecutive samples: the numbers it keeps a
// series of, each named by a dotted path ("cpu.all.usr", "disk.sda.riops")
// and its unit spelled out ("%", "MiB/s", "ms"). A collector added later
// gets statistics by declaring its series here, in its own report; nothing
// in summary names a collector.
//
// Two kinds, because a user reads them differently (sar's average row,
// pmlogsummary's time-weighted mean):
//   Rate   a value over the pair's interval (per second, or a share of the
//          interval): one value per interval, its mean weighted by the
//          interval's length, so a counter's mean rate is the whole span's.
//   Level  a gauge read at the later sample (memory used, load): one value
//          per sample, the span's first included, its mean the samples'.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pm {

class StatRow {
 public:
  // A value the pair does not have (a latency over no I/O): the series is
  // declared all the same, so that series keep their report's order.
  static constexpr double kNoValue = __builtin_nan("");

  virtual ~StatRow() = default;
  // `a.b.field` (`a.field` when b is empty); `v` may be kNoValue.
  void Rate(std::string_view a, std::string_view b, std::string_view field,
            std::string_view unit, double v) {
    Put(Name(a, b, field), unit, false, v);
  }
  void Level(std::string_view a, std::string_view b, std::string_view field,
             std::string_view unit, double v) {
    Put(Name(a, b, field), unit, true, v);
  }

 protected:
  virtual void Put(std::string_view name, std::string_view unit, bool level, double v) = 0;

 private:
  std::string_view Name(std::string_view a, std::string_view b, std::string_view field);
  std::string name_;
};

}  // namespace pm
