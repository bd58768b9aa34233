// `perfmonger diff`'s comparison, from the runs' statistics to ranked rows:
// phases matched by label (a label's k-th phase against its k-th), every
// series `summary --stats` keeps that every run of both sides has,
// compared by diff_stats.hh (run-level with two or more runs a side,
// within-run otherwise), Benjamini–Hochberg over all of them. A rate in
// units per second is compared twice: its mean, and its total over the
// phase (NAME.total, in the unit without "/s": what a run wrote, not how
// fast). What one side has and the other not is listed, not compared.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "playback/statistics/diff_stats.hh"
#include "playback/statistics/span_stats.hh"

namespace pm {

// One run: its phases' statistics, in file order ("start" first).
struct RunPhase {
  std::string label;
  std::vector<SeriesStats> series;
};
struct RunStats {
  std::string file;
  std::vector<RunPhase> phases;
};

struct DiffOptions {
  RunTest test = RunTest::kWelch;
  double fdr = 0.05;
  std::vector<std::string> series;  // fnmatch(3) patterns: only those (empty: all)
};

// A side's figures: its runs' averages (the percentiles NaN for a total).
struct SideFigures {
  double mean = 0, p50 = 0, p95 = 0, p99 = 0;
};

struct DiffRow {
  std::string phase;   // its label; a label's second phase "LABEL#2"
  std::string series;  // "disk.sda.wmibps", "disk.sda.wmibps.total"
  std::string unit;
  bool level = false;
  SideFigures a, b;
  Comparison change;
  double q = 1;  // the Benjamini–Hochberg adjusted p; NaN: not testable
  bool significant = false;
};

struct DiffResult {
  size_t runs_a = 0, runs_b = 0;
  bool within_run = false;  // a side has a single run: the block bootstrap
  RunTest test = RunTest::kWelch;
  double fdr = 0.05;
  // Significant ones first, each group by its relative change's size.
  std::vector<DiffRow> rows;
  // The phases not compared, one line each: "phase 'x': only in B".
  std::vector<std::string> phases_not_compared;
  // The series not compared, by name, and why: "only in A", "only in B",
  // "not in every run".
  std::vector<std::pair<std::string, std::string>> series_not_compared;
};

// The phases' keys, how they are matched: each label, and "#k" for a
// label's k-th phase (k > 1). Also `diff --report`'s overlay's.
std::vector<std::string> PhaseKeys(const std::vector<std::string>& labels);

DiffResult Diff(const std::vector<RunStats>& a, const std::vector<RunStats>& b,
                const DiffOptions& options);

}  // namespace pm
