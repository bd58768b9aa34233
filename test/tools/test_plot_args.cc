// `plot`'s command line: PerfMonger's options and their --FLAG=BOOL form.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/error.hh"
#include "tools/plot/plot_args.hh"

namespace {

pm::PlotArgs Parse(std::vector<std::string> words) {
  words.insert(words.begin(), "plot");
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  return pm::ParsePlotArgs(static_cast<int>(words.size()), argv.data());
}

}  // namespace

TEST_CASE("plot args: defaults, then every option") {
  pm::PlotArgs d = Parse({"run.pgr"});
  CHECK(d.file == "run.pgr");
  CHECK(d.output_dir == ".");
  CHECK(d.type == pm::ChartType::kPdf);
  CHECK_FALSE(d.save);
  CHECK(d.numkey_threshold == 10);
  CHECK(d.gnuplot == "gnuplot");

  pm::PlotArgs a = Parse({"-o", "out", "-T", "svg", "-p", "x-", "-s", "--offset-time",
                          "500ms", "--disk-only", "^sd", "--plot-write-only",
                          "--plot-numkey-threshold", "3", "--plot-iops-max", "250",
                          "--with-gnuplot", "/opt/gp", "-"});
  CHECK(a.output_dir == "out");
  CHECK(a.type == pm::ChartType::kSvg);
  CHECK(std::string(pm::ChartExtension(a.type)) == "svg");
  CHECK(a.prefix == "x-");
  CHECK(a.save);
  CHECK(a.offset_time == doctest::Approx(0.5));
  CHECK(a.disk_only.has_value());
  CHECK_FALSE(a.directions.read);
  CHECK(a.directions.write);
  CHECK(a.numkey_threshold == 3);
  CHECK(a.iops_max == 250);
  CHECK(a.gnuplot == "/opt/gp");
  CHECK(a.file == "-");
}

TEST_CASE("plot args: the last direction wins; --FLAG=true|false") {
  pm::PlotArgs a = Parse({"--plot-read-only", "--plot-read-write", "--save=false", "f"});
  CHECK(a.directions.read);
  CHECK(a.directions.write);
  CHECK_FALSE(a.save);
  CHECK(Parse({"--save=true", "f"}).save);
  CHECK(Parse({"--offset-time", "2.5", "f"}).offset_time == doctest::Approx(2.5));
}

TEST_CASE("plot args: mistakes are usage errors naming the fix") {
  CHECK_THROWS_AS(Parse({}), pm::UsageError);
  CHECK_THROWS_AS(Parse({"a", "-"}), pm::UsageError);  // stdin is read alone
  CHECK(Parse({"a", "b"}).files.size() == 2);             // one timeline
  CHECK_THROWS_AS(Parse({"-T", "jpeg", "f"}), pm::UsageError);
  CHECK_THROWS_AS(Parse({"--save=yes", "f"}), pm::UsageError);
  CHECK_THROWS_AS(Parse({"--plot-iops-max", "-1", "f"}), pm::UsageError);
  CHECK_THROWS_AS(Parse({"--plot-numkey-threshold", "2.5", "f"}), pm::UsageError);
  CHECK_THROWS_AS(Parse({"--offset-time", "soon", "f"}), pm::UsageError);
  CHECK_THROWS_AS(Parse({"--disk-only", "(", "f"}), pm::UsageError);
  CHECK_THROWS_AS(Parse({"--bogus", "f"}), pm::UsageError);
  CHECK_THROWS_AS(Parse({"-o", "", "f"}), pm::UsageError);
}
