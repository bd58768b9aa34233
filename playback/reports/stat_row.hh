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

// A series' name in its parts, joined only when a row needs the text: a
// walk of every pair compares the parts with the name it already holds.
struct SeriesKey {
  std::string_view a, b, field;
  // "a.b.field" (or "a.field") == name, without joining.
  bool Is(std::string_view name) const;
  void AppendTo(std::string& out) const;
};

class StatRow {
 public:
  // A value the pair does not have (a latency over no I/O): the series is
  // declared all the same, so that series keep their report's order.
  static constexpr double kNoValue = __builtin_nan("");

  virtual ~StatRow() = default;
  // `a.b.field` (`a.field` when b is empty); `v` may be kNoValue. Each
  // part is a literal (or a table's constant) or a name of the pair's
  // samples (a row's, or a piece of one), never a buffer of the report's:
  // the walk knows a series again by where its parts are
  // (playback/statistics/kept_sample.hh).
  void Rate(std::string_view a, std::string_view b, std::string_view field,
            std::string_view unit, double v) {
    Put({a, b, field}, unit, false, v);
  }
  void Level(std::string_view a, std::string_view b, std::string_view field,
             std::string_view unit, double v) {
    Put({a, b, field}, unit, true, v);
  }

 protected:
  virtual void Put(const SeriesKey& key, std::string_view unit, bool level, double v) = 0;
  // The key joined, in a buffer of the row's (valid until the next call).
  std::string_view Name(const SeriesKey& key);

 private:
  std::string name_;
};

}  // namespace pm
