#include "bench/stats.hh"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace pm::bench {

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  double rank = std::ceil(p / 100.0 * static_cast<double>(v.size()));
  size_t i = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
  return v[std::min(i, v.size() - 1)];
}

std::string Fmt(const char* format, ...) {
  char buf[256];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  return buf;
}

namespace {

const char* VerdictName(Verdict v) {
  switch (v) {
    case Verdict::kPass: return "PASS";
    case Verdict::kMiss: return "MISS";
    case Verdict::kInfo: return "-";
  }
  return "?";
}

}  // namespace

void PrintTable(const std::vector<Row>& rows) {
  size_t w[5] = {6, 8, 13, 5, 6};
  for (const Row& r : rows) {
    w[0] = std::max(w[0], r.figure.size());
    w[1] = std::max(w[1], r.measured.size());
    w[2] = std::max(w[2], r.floor.size());
    w[3] = std::max(w[3], r.ratio.size());
    w[4] = std::max(w[4], r.target.size());
  }
  auto line = [&](const std::string& a, const std::string& b, const std::string& c,
                  const std::string& d, const std::string& e, const char* f) {
    std::printf("%-*s  %*s  %*s  %*s  %-*s  %s\n", int(w[0]), a.c_str(), int(w[1]),
                b.c_str(), int(w[2]), c.c_str(), int(w[3]), d.c_str(), int(w[4]),
                e.c_str(), f);
  };
  line("figure", "measured", "floor/ref", "ratio", "target", "result");
  size_t total = w[0] + w[1] + w[2] + w[3] + w[4] + 10 + 6;
  std::printf("%s\n", std::string(total, '-').c_str());
  for (const Row& r : rows)
    line(r.figure, r.measured, r.floor, r.ratio, r.target, VerdictName(r.verdict));
}

}  // namespace pm::bench
