// summary --stats's percentiles in bounded memory
// (playback/statistics/quantile_store.hh): exact up to kExact values, then within
// kRelativeError of the exact nearest rank, on a synthetic day at 10 ms.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "playback/statistics/quantile_store.hh"

using pm::QuantileStore;

namespace {

// The nearest rank of sorted `values`.
double Exact(const std::vector<double>& values, int p) {
  size_t rank = std::max<size_t>((static_cast<size_t>(p) * values.size() + 99) / 100, 1);
  return values[rank - 1];
}

}  // namespace

TEST_CASE("quantiles: exact while few, the nearest rank of every value") {
  QuantileStore q;
  std::vector<double> values;
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> any(-50, 400);
  for (size_t i = 0; i < QuantileStore::kExact; ++i) {
    values.push_back(any(random));
    q.Add(values.back());
  }
  REQUIRE(q.exact());
  std::sort(values.begin(), values.end());
  for (int p : {1, 50, 95, 99, 100}) CHECK(q.NearestRank(p) == Exact(values, p));
  CHECK(q.min() == values.front());
  CHECK(q.count() == values.size());
}

TEST_CASE("quantiles: a day at 10 ms within the stated error, in tens of KiB") {
  constexpr size_t kDay = 86'400 * 100;
  QuantileStore q;
  std::vector<double> values;
  values.reserve(kDay);
  std::mt19937_64 random(42);
  // A busy series: idle zeros, a lognormal body, rare spikes, a few
  // negatives (a level can be any number).
  std::lognormal_distribution<double> body(3.0, 1.2);
  std::uniform_int_distribution<int> kind(0, 999);
  for (size_t i = 0; i < kDay; ++i) {
    int k = kind(random);
    double v = k < 150 ? 0.0 : k < 155 ? -body(random) : k > 995 ? 1e6 * body(random) : body(random);
    values.push_back(v);
    q.Add(v);
  }
  CHECK_FALSE(q.exact());
  CHECK(q.count() == kDay);
  CHECK(q.bytes() < 64 * 1024);
  std::sort(values.begin(), values.end());
  for (int p : {1, 10, 50, 90, 95, 99, 100}) {
    CAPTURE(p);
    double exact = Exact(values, p), got = q.NearestRank(p);
    CHECK(std::fabs(got - exact) <= QuantileStore::kRelativeError * std::fabs(exact) + 1e-9);
  }
  CHECK(q.min() == values.front());
}

TEST_CASE("quantiles: weighted, a value counts for its weight, exact and sketched alike") {
  // 1 and 2 weigh 0.1 each, 3 weighs 1: by count p50 is 2, by weight 3.
  QuantileStore q;
  q.Add(2, 0.1);
  q.Add(3, 1.0);
  q.Add(1, 0.1);
  CHECK(q.NearestRank(10) == 2);  // 0.12 of 1.2 reached by 1 and 2
  CHECK(q.NearestRank(50) == 3);
  CHECK(q.NearestRank(100) == 3);
  // The same shape, beyond the exact store: the sketch weighs alike.
  QuantileStore big;
  for (size_t i = 0; i < 3 * QuantileStore::kExact; ++i) {
    big.Add(10, 1.0);
    big.Add(1000, 0.01);  // as many values, 1 % of the weight
  }
  REQUIRE_FALSE(big.exact());
  CHECK(big.NearestRank(50) == doctest::Approx(10).epsilon(QuantileStore::kRelativeError));
  CHECK(big.NearestRank(99) == doctest::Approx(10).epsilon(QuantileStore::kRelativeError));
  CHECK(big.NearestRank(100) == doctest::Approx(1000).epsilon(QuantileStore::kRelativeError));
}
