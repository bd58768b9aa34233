// diff's statistics (playback/statistics/diff_stats.hh, batch_means.hh) on values
// whose answer is known by hand or by construction. SciPy's figures are
// test_diff_scipy.py's; the power and false-flag rates test_diff_power.cc's.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "playback/statistics/batch_means.hh"
#include "playback/statistics/diff_stats.hh"
#include "test/playback/ar1_runs.hh"

namespace pm {
namespace {

TEST_SUITE("diff statistics") {
  TEST_CASE("Welch's t by hand, and runs without variance") {
    const std::vector<double> a = {1, 2, 3}, b = {4, 5, 6, 7};
    const TestResult t = Welch(a, b);
    // means 2 and 5.5, variances 1 and 5/3: se² = 1/3 + 5/12 = 0.75
    CHECK(t.statistic == doctest::Approx(-3.5 / std::sqrt(0.75)).epsilon(1e-12));
    CHECK(t.df == doctest::Approx(0.5625 / (1.0 / 18 + 25.0 / 432)).epsilon(1e-12));
    CHECK(t.p > 0.005);
    CHECK(t.p < 0.02);
    const std::vector<double> same = {3, 3, 3};
    CHECK(Welch(same, same).p == 1.0);
    const std::vector<double> other = {4, 4, 4};
    CHECK(Welch(same, other).p == 0.0);
  }

  TEST_CASE("Mann-Whitney U: exact for small samples, normal with ties") {
    const std::vector<double> a = {1, 2, 3, 4, 5}, b = {6, 7, 8, 9, 10};
    const TestResult u = MannWhitneyU(a, b);
    CHECK(u.statistic == 0.0);
    CHECK(u.p == doctest::Approx(2.0 / 252).epsilon(1e-12));  // 2 / C(10, 5)
    const std::vector<double> tied = {1, 1, 2, 2, 3};
    CHECK(MannWhitneyU(tied, b).p > 0.0);
    CHECK(MannWhitneyU(a, a).p == doctest::Approx(1.0));
  }

  TEST_CASE("Benjamini-Hochberg: step-up adjusted p-values, NaN left out") {
    const std::vector<double> p = {0.01, 0.04, NAN, 0.03, 0.5};
    const std::vector<double> q = BenjaminiHochberg(p);
    // m = 4: sorted 0.01 0.03 0.04 0.5 -> 0.04 0.04 0.04 (min of 4·p/k upward) 0.5
    CHECK(q[0] == doctest::Approx(0.04));
    CHECK(q[1] == doctest::Approx(0.04 * 4 / 3));
    CHECK(q[3] == doctest::Approx(0.04 * 4 / 3));
    CHECK(std::isnan(q[2]));
    CHECK(q[4] == doctest::Approx(0.5));
  }

  TEST_CASE("block length: short for white noise, long for AR(1) phi 0.9") {
    test::Ar1Runs gen(7);
    test::Ar1Spec white{.phi = 0.0, .within = 0.1, .samples = 2000};
    test::Ar1Spec red{.phi = 0.9, .within = 0.1, .samples = 2000};
    CHECK(BlockLength(gen.Run(white, 100)).length <= 3);
    const size_t l = BlockLength(gen.Run(red, 100)).length;
    CAPTURE(l);
    CHECK(l >= 19);  // at least the autocorrelation time
    CHECK(l <= 200);
  }

  TEST_CASE("block bootstrap: the AR(1) mean's standard error, not the iid one") {
    test::Ar1Runs gen(11);
    test::Ar1Spec s{.phi = 0.9, .within = 0.1, .samples = 2000};
    const double truth = 100 * std::sqrt(test::Ar1MeanVariance(s));
    double sum = 0;
    const int trials = 40;
    for (int i = 0; i < trials; ++i) {
      const std::vector<double> x = gen.Run(s, 100);
      double m = 0;
      for (double v : x) m += v;
      sum += BlockBootstrap(x, m / 2000).se;
    }
    const double ratio = sum / trials / truth;
    CAPTURE(ratio);
    CHECK(ratio > 0.75);  // the iid one is sqrt(19) = 4.4 times too small
    CHECK(ratio < 1.15);
  }

  TEST_CASE("batch means: exact up to the cap, then merged pairwise, mean kept") {
    BatchMeans b;
    for (int i = 0; i < 4096; ++i) b.Add(i, 1);
    CHECK(b.per_batch() == 1);
    CHECK(b.Means().size() == 4096);
    CHECK(b.Means()[17] == 17);
    b.Add(4096, 1);
    CHECK(b.per_batch() == 2);
    CHECK(b.Means().size() == 2049);
    CHECK(b.Means()[0] == 0.5);
    for (int i = 4097; i < 100000; ++i) b.Add(i, 1);
    CHECK(b.Means().size() <= BatchMeans::kMaxBatches);
    CHECK(b.Mean() == doctest::Approx(99999.0 / 2));
    BatchMeans w;
    w.Add(10, 1);
    w.Add(20, 3);
    CHECK(w.Mean() == doctest::Approx(17.5));  // time-weighted
  }

  TEST_CASE("comparisons: the change, its interval, a ratio's delta-method interval") {
    const std::vector<double> a = {100, 102, 98, 101, 99}, b = {200, 204, 196, 202, 198};
    const Comparison c = CompareRuns(a, b, RunTest::kWelch);
    CHECK(c.diff == doctest::Approx(100));
    CHECK(c.ratio == doctest::Approx(2));
    CHECK(c.ratio_low < 2);
    CHECK(c.ratio_high > 2);
    CHECK(c.ratio_high - c.ratio_low < 0.1);
    CHECK(c.p < 1e-6);
    CHECK(std::isnan(CompareRuns({a.data(), 1}, b, RunTest::kWelch).p));
    const BlockEstimate one{.mean = 5, .se = 0.1, .block = 10, .blocks = 20};
    const Comparison self = CompareWithin({&one, 1}, {&one, 1});
    CHECK(self.p == doctest::Approx(1.0));
    CHECK(self.diff == 0.0);
    const BlockEstimate few{.mean = 5, .se = 0.1, .block = 10, .blocks = 1};
    CHECK(std::isnan(CompareWithin({&few, 1}, {&one, 1}).p));
    const double seconds[] = {2.0}, half[] = {1.0};
    const Comparison totals = CompareWithin({&one, 1}, {&one, 1}, seconds, half);
    CHECK(totals.ratio == doctest::Approx(0.5));
  }
}

}  // namespace
}  // namespace pm
