// The statistics of `perfmonger diff` (docs/diff-statistics.md): whether
// a series differs between side A and side B, and by how much, without
// treating 10 ms samples, which are strongly autocorrelated, as
// independent. Distributions come from Boost.Math.
//
// Between repeated runs (two or more a side) the unit is the run: one
// aggregate per run (its phase's mean, or total), compared by Welch's t
// (the default) or Mann–Whitney U, as Kalibera & Jones recommend.
// Welch() and MannWhitneyU() give SciPy's ttest_ind(a, b,
// equal_var=False) and mannwhitneyu(a, b) (method "auto") figures.
//
// With one run a side the test is within-run: a moving-block bootstrap
// over each run's series (batch means, batch_means.hh). The bootstrap's
// variance of the mean is computed exactly — the limit of infinitely many
// resamples, with no Monte Carlo noise: the resampled mean averages
// floor(n/l) blocks drawn uniformly from the n−l+1 overlapping blocks of
// length l, so its variance is the blocks' means' variance over
// floor(n/l). l is Politis & White's (2004, with Patton, Politis & White's
// 2009 correction) automatic choice from the series' autocorrelation. The
// difference of the means over its standard error is then read on a t
// distribution (Welch–Satterthwaite degrees of freedom, each run's
// floor(n/l) − 1). The leading term of the bootstrap variance's known
// downward bias, reach/l, is taken out (BlockChoice).
//
// Across the series, BenjaminiHochberg() controls the false discovery rate.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace pm {

struct TestResult {
  double statistic = 0;  // t (A minus B, as SciPy), or U of A
  double df = 0;         // Welch's; 0 for U
  double p = 1;          // two-sided
};

// Welch's t on a (n ≥ 2) and b (m ≥ 2). Both sides without variance: t is
// 0 and p 1 when the means are equal, else ±inf and p 0.
TestResult Welch(std::span<const double> a, std::span<const double> b);
// Mann–Whitney U: exact when both sides have at most 8 values and none is
// tied, else the normal approximation with tie and continuity correction.
TestResult MannWhitneyU(std::span<const double> a, std::span<const double> b);

// Politis & White's block length for `x` (at least 1, at most n/3), and
// the series' reach G/σ²∞ = Σ|k|R(k) / ΣR(k) (flat-top weighted), in
// values: the bootstrap variance's relative bias is −reach/length.
struct BlockChoice {
  size_t length = 1;
  double reach = 0;
};
BlockChoice BlockLength(std::span<const double> x);

// One run's mean and its moving-block bootstrap standard error.
struct BlockEstimate {
  double mean = 0;
  double se = 0;        // of the mean
  size_t block = 1;     // l, in values of x
  size_t blocks = 0;    // floor(n/l): the resampled mean's blocks
};
// `x` a run's series (batch means); `mean` its point estimate (the
// time-weighted mean, which the batches' plain mean may differ from).
BlockEstimate BlockBootstrap(std::span<const double> x, double mean);

// Side B against side A: the change and its 95 % confidence interval,
// absolute and relative.
struct Comparison {
  double mean_a = 0, mean_b = 0;
  double diff = 0, diff_low = 0, diff_high = 0;     // B − A
  double ratio = 0, ratio_low = 0, ratio_high = 0;  // B / A; NaN when A is 0
  double statistic = 0, df = 0;
  double p = 1;  // NaN: not testable (too few values)
};

enum class RunTest { kWelch, kMannWhitney };  // diff --test's choices, in order

// Run-level: one aggregate per run.
Comparison CompareRuns(std::span<const double> a, std::span<const double> b, RunTest test);
// Within-run: one estimate per run of each side; a side's mean is its
// runs' average. `scale_a`, `scale_b` multiply each run's estimate (a
// total is a mean rate times the run's seconds); empty: 1.
Comparison CompareWithin(std::span<const BlockEstimate> a, std::span<const BlockEstimate> b,
                         std::span<const double> scale_a = {},
                         std::span<const double> scale_b = {});

// Benjamini–Hochberg adjusted p-values (q-values), in the input's order;
// NaN stays NaN and does not count among the tests.
std::vector<double> BenjaminiHochberg(std::span<const double> p);

}  // namespace pm
