// diff's run-level statistics for test_diff_scipy.py to check against
// SciPy: each stdin line "A1 A2 ... | B1 B2 ..." prints
// "t df p U p_U" (Welch's t, Mann-Whitney U); a line "bh P1 P2 ..." prints
// the Benjamini-Hochberg q-values. Full precision (%.17g).
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "playback/statistics/diff_stats.hh"

namespace {

std::vector<double> Numbers(std::istringstream& in) {
  std::vector<double> out;
  for (std::string word; in >> word && word != "|";) out.push_back(std::stod(word));
  return out;
}

}  // namespace

int main() {
  for (std::string line; std::getline(std::cin, line);) {
    std::istringstream in(line);
    if (line.rfind("bh ", 0) == 0) {
      std::string word;
      in >> word;
      for (double q : pm::BenjaminiHochberg(Numbers(in))) std::printf("%.17g ", q);
      std::printf("\n");
      continue;
    }
    const std::vector<double> a = Numbers(in), b = Numbers(in);
    const pm::TestResult t = pm::Welch(a, b), u = pm::MannWhitneyU(a, b);
    std::printf("%.17g %.17g %.17g %.17g %.17g\n", t.statistic, t.df, t.p, u.statistic, u.p);
  }
  return 0;
}
