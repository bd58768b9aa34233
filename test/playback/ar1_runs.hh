// Synthetic runs for diff's statistics: each series of a run follows an
// AR(1) process around the run's level, x_t = μ_r (1 + e_t),
// e_t = φ e_(t−1) + ε_t, stationary (e_0 drawn from the stationary law),
// with sd(e) = `within` — a 10 ms series with φ = 0.9 has an
// autocorrelation time of (1+φ)/(1−φ) = 19 samples. The run's level μ_r
// = μ (1 + `run_sd`·z) carries the run-to-run variation; seeded, so every
// trial is reproducible.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace pm::test {

struct Ar1Spec {
  double phi = 0.9;
  double within = 0.05;  // sd of e_t, relative to the level
  double run_sd = 0.0;   // sd of the run's level, relative
  size_t samples = 500;  // values per run
};

class Ar1Runs {
 public:
  explicit Ar1Runs(uint64_t seed) : rng_(seed) {}

  // One run of one series at level `mu`.
  std::vector<double> Run(const Ar1Spec& s, double mu) {
    const double level = mu * (1 + s.run_sd * normal_(rng_));
    const double innovation = s.within * std::sqrt(1 - s.phi * s.phi);
    std::vector<double> x(s.samples);
    double e = s.within * normal_(rng_);
    for (double& v : x) {
      v = level * (1 + e);
      e = s.phi * e + innovation * normal_(rng_);
    }
    return x;
  }

  // A run's aggregate: its series' mean.
  double RunMean(const Ar1Spec& s, double mu) {
    const std::vector<double> x = Run(s, mu);
    double sum = 0;
    for (double v : x) sum += v;
    return sum / static_cast<double>(x.size());
  }

 private:
  std::mt19937_64 rng_;
  std::normal_distribution<double> normal_;
};

// The within-run part of a run mean's variance, relative to μ²: the AR(1)
// mean's, σ²/n · (1+φ)/(1−φ) to first order.
inline double Ar1MeanVariance(const Ar1Spec& s) {
  return s.within * s.within / static_cast<double>(s.samples) * (1 + s.phi) / (1 - s.phi);
}

}  // namespace pm::test
