// Order statistics and the result table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pm::bench {

// Nearest-rank percentile (p in [0, 100]) of a copy of `v`; 0 if empty.
double Percentile(std::vector<double> v, double p);
inline double Median(const std::vector<double>& v) { return Percentile(v, 50); }

enum class Verdict { kPass, kMiss, kInfo };

struct Row {
  std::string figure;
  std::string measured;
  std::string floor;   // floor or reference, measured in the same run
  std::string ratio;   // measured / floor, when meaningful
  std::string target;
  Verdict verdict = Verdict::kInfo;
};

inline Verdict Check(bool ok) { return ok ? Verdict::kPass : Verdict::kMiss; }

// printf into a std::string.
std::string Fmt(const char* format, ...) __attribute__((format(printf, 1, 2)));

void PrintTable(const std::vector<Row>& rows);

}  // namespace pm::bench
