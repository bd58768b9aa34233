// The within-run half of diff_stats.hh: Politis & White's block length and
// the moving-block bootstrap's exact variance of the mean.
#include <algorithm>
#include <cmath>

#include "playback/statistics/diff_stats.hh"

namespace pm {
namespace {

double Mean(std::span<const double> x) {
  double s = 0;
  for (double v : x) s += v;
  return x.empty() ? 0.0 : s / static_cast<double>(x.size());
}

// Autocovariances R(0..max_lag), biased (divided by n), as Politis & White.
std::vector<double> Autocovariances(std::span<const double> x, size_t max_lag) {
  const double m = Mean(x);
  const size_t n = x.size();
  std::vector<double> r(max_lag + 1, 0.0);
  for (size_t k = 0; k <= max_lag; ++k) {
    double s = 0;
    for (size_t i = 0; i + k < n; ++i) s += (x[i] - m) * (x[i + k] - m);
    r[k] = s / static_cast<double>(n);
  }
  return r;
}

// The smallest m after which K_N autocorrelations in a row are
// insignificant (|ρ| < 2·sqrt(log10(n)/n)); max_lag when none is.
size_t LastSignificantLag(const std::vector<double>& r, size_t n) {
  const double logn = std::log10(static_cast<double>(n));
  const double bound = 2.0 * std::sqrt(logn / static_cast<double>(n));
  const size_t kn = std::max<size_t>(5, static_cast<size_t>(std::ceil(std::sqrt(logn))));
  const size_t max_lag = r.size() - 1;
  for (size_t m = 0; m + kn <= max_lag; ++m) {
    bool quiet = true;
    for (size_t k = m + 1; k <= m + kn && quiet; ++k) quiet = std::fabs(r[k] / r[0]) < bound;
    if (quiet) return m;
  }
  return max_lag;
}

// The flat-top (trapezoid) window.
double FlatTop(double t) {
  t = std::fabs(t);
  if (t <= 0.5) return 1.0;
  return t <= 1.0 ? 2.0 * (1.0 - t) : 0.0;
}

}  // namespace

BlockChoice BlockLength(std::span<const double> x) {
  const size_t n = x.size();
  if (n < 6) return {};
  const double logn = std::log10(static_cast<double>(n));
  const size_t kn = std::max<size_t>(5, static_cast<size_t>(std::ceil(std::sqrt(logn))));
  const size_t max_lag = std::min(
      n - 1, static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(n)))) + kn);
  const std::vector<double> r = Autocovariances(x, max_lag);
  if (r[0] <= 0) return {};
  const size_t big_m = std::min(2 * LastSignificantLag(r, n), max_lag);
  if (big_m == 0) return {};
  double g = 0, d = r[0];
  for (size_t k = 1; k <= big_m; ++k) {
    const double w = FlatTop(static_cast<double>(k) / static_cast<double>(big_m)) * r[k];
    g += 2.0 * static_cast<double>(k) * w;
    d += 2.0 * w;
  }
  const double dd = 4.0 / 3.0 * d * d;
  if (dd <= 0 || g <= 0) return {};
  const double b = std::cbrt(2.0 * g * g / dd) * std::cbrt(static_cast<double>(n));
  const double cap = std::min(3.0 * std::sqrt(static_cast<double>(n)), n / 3.0);
  return {static_cast<size_t>(std::clamp(std::ceil(b), 1.0, std::max(1.0, cap))), g / d};
}

BlockEstimate BlockBootstrap(std::span<const double> x, double mean) {
  BlockEstimate e;
  e.mean = mean;
  const size_t n = x.size();
  if (n == 0) return e;
  const BlockChoice choice = BlockLength(x);
  e.block = choice.length;
  e.blocks = n / e.block;
  // Every block's mean by a running sum; their variance about their mean.
  const size_t l = e.block, count = n - l + 1;
  double window = 0;
  for (size_t i = 0; i < l; ++i) window += x[i];
  std::vector<double> means(count);
  for (size_t j = 0; j < count; ++j) {
    means[j] = window / static_cast<double>(l);
    if (j + l < n) window += x[j + l] - x[j];
  }
  const double center = Mean(means);
  double ss = 0;
  for (double m : means) ss += (m - center) * (m - center);
  // The leading term of the bootstrap variance's downward bias, −G/(l·σ²∞)
  // relatively (Künsch 1989; Lahiri 2003, §3), taken out, at most halved.
  const double bias = std::min(choice.reach / static_cast<double>(l), 0.5);
  e.se = std::sqrt(ss / static_cast<double>(count) / static_cast<double>(e.blocks) /
                   (1.0 - bias));
  return e;
}

}  // namespace pm
