#include "playback/statistics/diff_stats.hh"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>

namespace pm {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Moments {
  double n = 0, mean = 0, var = 0;  // var: unbiased
};

Moments MomentsOf(std::span<const double> x) {
  Moments m;
  m.n = static_cast<double>(x.size());
  for (double v : x) m.mean += v;
  m.mean /= m.n;
  for (double v : x) m.var += (v - m.mean) * (v - m.mean);
  m.var = x.size() > 1 ? m.var / (m.n - 1) : 0.0;
  return m;
}

// Two-sided p of t on `df` degrees of freedom (infinite: the normal).
double TwoSidedP(double t, double df) {
  if (std::isnan(t)) return kNaN;
  if (std::isinf(t)) return 0.0;
  if (!(df > 0) || std::isinf(df))
    return 2 * boost::math::cdf(boost::math::complement(boost::math::normal(), std::fabs(t)));
  return 2 * boost::math::cdf(
                 boost::math::complement(boost::math::students_t(df), std::fabs(t)));
}

// The 97.5 % quantile: a 95 % interval's half-width per standard error.
double Critical(double df) {
  if (!(df > 0) || std::isinf(df)) return boost::math::quantile(boost::math::normal(), 0.975);
  return boost::math::quantile(boost::math::students_t(df), 0.975);
}

// Ranks 1..n of a then b, ties averaged (SciPy's rankdata); and Σ t³ − t.
std::vector<double> Ranks(std::span<const double> a, std::span<const double> b,
                          double& tie_term) {
  std::vector<double> all(a.begin(), a.end());
  all.insert(all.end(), b.begin(), b.end());
  std::vector<size_t> order(all.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t i, size_t j) { return all[i] < all[j]; });
  std::vector<double> ranks(all.size());
  tie_term = 0;
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j < order.size() && all[order[j]] == all[order[i]]) ++j;
    const double t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    for (size_t k = i; k < j; ++k) ranks[order[k]] = (static_cast<double>(i + j) + 1) / 2;
    i = j;
  }
  return ranks;
}

// P(U ≥ u) under the null, no ties: the count of arrangements by
// dynamic programming over (values of A placed, U so far).
double ExactUpperTail(size_t n1, size_t n2, double u) {
  // f[i][k]: arrangements of i A-values among j B-values with U = k,
  // built column by column over j.
  const size_t top = n1 * n2;
  std::vector<std::vector<double>> f(n1 + 1, std::vector<double>(top + 1, 0.0));
  for (size_t i = 0; i <= n1; ++i) f[i][0] = 1;  // j = 0
  for (size_t j = 1; j <= n2; ++j)
    for (size_t i = 1; i <= n1; ++i)  // f(i, j, k) = f(i−1, j, k−j) + f(i, j−1, k)
      for (size_t k = top; k + 1 > 0; --k) f[i][k] += k >= j ? f[i - 1][k - j] : 0.0;
  double total = 0, tail = 0;
  for (size_t k = 0; k <= top; ++k) {
    total += f[n1][k];
    if (static_cast<double>(k) >= u) tail += f[n1][k];
  }
  return tail / total;
}

}  // namespace

TestResult Welch(std::span<const double> a, std::span<const double> b) {
  const Moments x = MomentsOf(a), y = MomentsOf(b);
  const double va = x.var / x.n, vb = y.var / y.n;
  TestResult r;
  const double se = std::sqrt(va + vb);
  if (se == 0) {
    r.statistic = x.mean == y.mean ? 0.0 : std::copysign(INFINITY, x.mean - y.mean);
    r.df = x.n + y.n - 2;
    r.p = x.mean == y.mean ? 1.0 : 0.0;
    return r;
  }
  r.statistic = (x.mean - y.mean) / se;
  r.df = (va + vb) * (va + vb) / (va * va / (x.n - 1) + vb * vb / (y.n - 1));
  r.p = TwoSidedP(r.statistic, r.df);
  return r;
}

TestResult MannWhitneyU(std::span<const double> a, std::span<const double> b) {
  const double n1 = static_cast<double>(a.size()), n2 = static_cast<double>(b.size());
  double tie_term = 0;
  const std::vector<double> ranks = Ranks(a, b, tie_term);
  const double r1 = std::accumulate(ranks.begin(), ranks.begin() + a.size(), 0.0);
  TestResult r;
  r.statistic = r1 - n1 * (n1 + 1) / 2;
  const double u = std::max(r.statistic, n1 * n2 - r.statistic);
  if ((a.size() <= 8 || b.size() <= 8) && tie_term == 0) {
    r.p = 2 * ExactUpperTail(a.size(), b.size(), u);
  } else {
    const double n = n1 + n2;
    const double s = std::sqrt(n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1))));
    const double z = (u - n1 * n2 / 2 - 0.5) / s;
    r.p = s > 0 ? 2 * boost::math::cdf(boost::math::complement(boost::math::normal(), z)) : 1.0;
  }
  r.p = std::clamp(r.p, 0.0, 1.0);
  return r;
}

namespace {

// The intervals of a difference with standard error `se` on `df`, and of
// the ratio by the delta method: se(B/A) = sqrt(se_b² + r²·se_a²) / |A|.
void Intervals(Comparison& c, double se_a, double se_b, double df) {
  const double k = Critical(df);
  const double se = std::sqrt(se_a * se_a + se_b * se_b);
  c.diff = c.mean_b - c.mean_a;
  c.diff_low = c.diff - k * se;
  c.diff_high = c.diff + k * se;
  if (c.mean_a == 0) {
    c.ratio = c.ratio_low = c.ratio_high = kNaN;
    return;
  }
  c.ratio = c.mean_b / c.mean_a;
  const double se_r = std::sqrt(se_b * se_b + c.ratio * c.ratio * se_a * se_a) /
                      std::fabs(c.mean_a);
  c.ratio_low = c.ratio - k * se_r;
  c.ratio_high = c.ratio + k * se_r;
}

}  // namespace

Comparison CompareRuns(std::span<const double> a, std::span<const double> b, RunTest test) {
  Comparison c;
  const Moments x = MomentsOf(a), y = MomentsOf(b);
  c.mean_a = x.mean;
  c.mean_b = y.mean;
  if (a.size() < 2 || b.size() < 2) {
    c.p = kNaN;
    Intervals(c, 0, 0, 0);
    return c;
  }
  const TestResult welch = Welch(a, b);
  // The interval is Welch's whichever test gives p (U has no interval of
  // the means).
  Intervals(c, std::sqrt(x.var / x.n), std::sqrt(y.var / y.n), welch.df);
  const TestResult t = test == RunTest::kWelch ? welch : MannWhitneyU(a, b);
  c.statistic = t.statistic;
  c.df = t.df;
  c.p = t.p;
  return c;
}

namespace {

// A side's mean (its runs' average) and its variance's parts for
// Welch–Satterthwaite: Σ v_r / R² and Σ (v_r / R²)² / df_r.
struct SideEstimate {
  double mean = 0, var = 0, var_sq_over_df = 0;
  bool testable = true;
};

SideEstimate Side(std::span<const BlockEstimate> runs, std::span<const double> scale) {
  SideEstimate s;
  const double r = static_cast<double>(runs.size());
  for (size_t i = 0; i < runs.size(); ++i) {
    const double f = scale.empty() ? 1.0 : scale[i];
    const double v = runs[i].se * f * runs[i].se * f / (r * r);
    s.mean += runs[i].mean * f / r;
    s.var += v;
    if (runs[i].blocks < 2) s.testable = false;
    else s.var_sq_over_df += v * v / static_cast<double>(runs[i].blocks - 1);
  }
  return s;
}

}  // namespace

Comparison CompareWithin(std::span<const BlockEstimate> a, std::span<const BlockEstimate> b,
                         std::span<const double> scale_a, std::span<const double> scale_b) {
  Comparison c;
  const SideEstimate x = Side(a, scale_a), y = Side(b, scale_b);
  c.mean_a = x.mean;
  c.mean_b = y.mean;
  const double var = x.var + y.var;
  const double df = var * var / (x.var_sq_over_df + y.var_sq_over_df);
  Intervals(c, std::sqrt(x.var), std::sqrt(y.var), df);
  if (a.empty() || b.empty() || !x.testable || !y.testable) {
    c.p = kNaN;
    return c;
  }
  if (var == 0) {
    c.p = c.diff == 0 ? 1.0 : 0.0;
    c.statistic = c.diff == 0 ? 0.0 : std::copysign(INFINITY, -c.diff);
    return c;
  }
  c.statistic = (c.mean_a - c.mean_b) / std::sqrt(var);
  c.df = df;
  c.p = TwoSidedP(c.statistic, df);
  return c;
}

std::vector<double> BenjaminiHochberg(std::span<const double> p) {
  std::vector<size_t> order;
  for (size_t i = 0; i < p.size(); ++i)
    if (!std::isnan(p[i])) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](size_t i, size_t j) { return p[i] < p[j]; });
  std::vector<double> q(p.begin(), p.end());
  const double m = static_cast<double>(order.size());
  double running = 1.0;  // the smallest m/k · p_(k) from the largest k down
  for (size_t k = order.size(); k > 0; --k) {
    running = std::min(running, p[order[k - 1]] * m / static_cast<double>(k));
    q[order[k - 1]] = running;
  }
  return q;
}

}  // namespace pm
