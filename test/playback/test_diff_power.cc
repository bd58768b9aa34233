// What diff's statistics promise a user comparing runs, measured over
// seeded trials of synthetic runs (ar1_runs.hh: hundreds of series, AR(1)
// with φ = 0.9, run-to-run coefficient of variation 2 %). Why 5 runs
// cannot find a 5 % shift among hundreds of series 90 % of the time, and
// what these tests hold instead: docs/diff-statistics.md.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "playback/statistics/diff_stats.hh"
#include "test/playback/ar1_runs.hh"

namespace pm {
namespace {

constexpr size_t kSeries = 200;
constexpr double kLevel = 100;
constexpr double kFdr = 0.05;

// Runs of 1 s at 10 ms whose means vary by 2 % from run to run in all:
// the level's own variation plus the AR(1) mean's.
test::Ar1Spec RunLevelSpec() {
  test::Ar1Spec s{.phi = 0.9, .within = 0.02, .samples = 100};
  s.run_sd = std::sqrt(0.02 * 0.02 - test::Ar1MeanVariance(s));
  return s;
}

// One trial: `runs` a side of every series, series 0 shifted by `shift`
// on side B; the q-values of Welch's t on the run means.
std::vector<double> RunLevelTrial(test::Ar1Runs& gen, size_t runs, double shift) {
  const test::Ar1Spec s = RunLevelSpec();
  std::vector<double> p(kSeries);
  for (size_t i = 0; i < kSeries; ++i) {
    std::vector<double> a(runs), b(runs);
    for (double& v : a) v = gen.RunMean(s, kLevel);
    for (double& v : b) v = gen.RunMean(s, kLevel * (i == 0 ? 1 + shift : 1));
    p[i] = CompareRuns(a, b, RunTest::kWelch).p;
  }
  return BenjaminiHochberg(p);
}

size_t Flagged(const std::vector<double>& q) {
  size_t n = 0;
  for (double v : q) n += v <= kFdr;
  return n;
}

// The naive t-test's p on two runs' samples as if independent.
double IndependentSamplesP(const std::vector<double>& a, const std::vector<double>& b) {
  return Welch(a, b).p;
}

double MeanOf(const std::vector<double>& x) {
  double s = 0;
  for (double v : x) s += v;
  return s / static_cast<double>(x.size());
}

TEST_SUITE("diff statistics: power and false flags") {
  // Welch's power at q = 0.05/200 here is 94 % (docs/diff-statistics.md).
  TEST_CASE("5 runs a side, 200 series, one shifted by 15 %: found in >= 90 % of 100 trials") {
    test::Ar1Runs gen(20261204);
    int found = 0, others = 0;
    for (int trial = 0; trial < 100; ++trial) {
      const std::vector<double> q = RunLevelTrial(gen, 5, 0.15);
      found += q[0] <= kFdr;
      others += Flagged(q) - (q[0] <= kFdr);
    }
    MESSAGE("15 % shift found in " << found << " of 100 trials (Welch, BH over 200); "
            << others << " other series flagged");
    CHECK(found >= 90);
    CHECK(others <= 10);
  }

  // Welch's power for a 5 % shift of one series tested alone at 0.05 is
  // 90.5 %: over 1,000 trials the rate is that within its noise (0.9 %).
  TEST_CASE("5 runs a side, a 5 % shift in the one series asked about: found ~90 %") {
    test::Ar1Runs gen(5);
    const test::Ar1Spec s = RunLevelSpec();
    int found = 0, found_among_200 = 0;
    for (int trial = 0; trial < 1000; ++trial) {
      std::vector<double> a(5), b(5);
      for (double& v : a) v = gen.RunMean(s, kLevel);
      for (double& v : b) v = gen.RunMean(s, kLevel * 1.05);
      found += CompareRuns(a, b, RunTest::kWelch).p <= kFdr;
      if (trial < 20) found_among_200 += RunLevelTrial(gen, 5, 0.05)[0] <= kFdr;
    }
    MESSAGE("5 % shift: alone " << found << " of 1000; among 200 series (BH) "
                                << found_among_200 << " of 20");
    CHECK(found >= 880);
    CHECK(found_among_200 <= 10);  // out of reach (docs/diff-statistics.md): ~12 % expected
  }

  TEST_CASE("200 pairs without a shift: at most 5 % report any series") {
    test::Ar1Runs gen(42);
    int any = 0;
    for (int trial = 0; trial < 200; ++trial) any += Flagged(RunLevelTrial(gen, 5, 0.0)) > 0;
    MESSAGE(any << " of 200 pairs flagged a series");
    CHECK(any <= 10);
  }

  TEST_CASE("one against one: the block bootstrap's false flags against the naive t-test's") {
    test::Ar1Runs gen(99);
    const test::Ar1Spec s{.phi = 0.9, .within = 0.05, .samples = 4000};  // 40 s at 10 ms
    int ours = 0, naive = 0, pairs_flagged = 0, tests = 0;
    for (int pair = 0; pair < 10; ++pair) {
      std::vector<double> p(kSeries);
      for (size_t i = 0; i < kSeries; ++i) {
        const std::vector<double> a = gen.Run(s, kLevel), b = gen.Run(s, kLevel);
        const BlockEstimate ea = BlockBootstrap(a, MeanOf(a)), eb = BlockBootstrap(b, MeanOf(b));
        p[i] = CompareWithin({&ea, 1}, {&eb, 1}).p;
        ours += p[i] <= 0.05;
        naive += IndependentSamplesP(a, b) <= 0.05;
        ++tests;
      }
      pairs_flagged += Flagged(BenjaminiHochberg(p)) > 0;
    }
    const double our_rate = double(ours) / tests, naive_rate = double(naive) / tests;
    MESSAGE("false flags at p <= 0.05: block bootstrap " << our_rate << ", naive t-test "
            << naive_rate << "; pairs with a series flagged after BH: " << pairs_flagged
            << " of 10");
    CHECK(our_rate <= 0.05);
    CHECK(naive_rate > 0.5);
    CHECK(pairs_flagged <= 1);
  }

  TEST_CASE("one against one: a 5 % shift within 20 s runs is found") {
    test::Ar1Runs gen(3);
    const test::Ar1Spec s{.phi = 0.9, .within = 0.05, .samples = 2000};
    int found = 0;
    for (int trial = 0; trial < 20; ++trial) {
      const std::vector<double> a = gen.Run(s, kLevel), b = gen.Run(s, kLevel * 1.05);
      const BlockEstimate ea = BlockBootstrap(a, MeanOf(a)), eb = BlockBootstrap(b, MeanOf(b));
      const Comparison c = CompareWithin({&ea, 1}, {&eb, 1});
      found += c.p <= kFdr / kSeries;  // what BH asks of the one true change among 200
      CHECK(c.ratio_low < 1.05 + 0.02);
    }
    CHECK(found >= 18);
  }
}

}  // namespace
}  // namespace pm
