// play --format openmetrics of a real --record-procs recording: the
// exposition is sound (each family and series in one piece, timestamps
// increasing), and the busiest process's perfmonger_proctable_cpu_seconds
// counter, user plus system at its last point, is what `summary --top`
// counted for it: its usr(s)+sys(s) at their printed resolution, its CPU
// (schedstat) within 1 % (and a tick).
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "test/playback/openmetrics_check.hh"
#include "test/process/load_helper.hh"
#include "test/process/recording.hh"

namespace pm::test {
namespace {

double LastValue(Exposition& e, const std::string& series) {
  const std::vector<Point>& points = e.series[series];
  REQUIRE(!points.empty());
  return std::stod(points.back().value);
}

TEST_CASE("process table export: the busiest process's counter is summary --top's CPU") {
  TempDir dir;
  const std::string path = dir / "procs.pgr";
  CommandSession s({"record", "-i", "0.2", "-l", path, "--record-procs"});
  s.ReadReadyLine();
  LoadHelper busy(dir / "unused");
  for (int round = 0; round < 4; ++round) REQUIRE(busy.Do('c') == 'c');  // 0.5 s of CPU each
  REQUIRE(bool(s.Command("stop").root()["ok"]));
  REQUIRE(s.Wait().code == 0);

  ExitResult r = Run({"summary", "--top", "1", "--json", path});
  REQUIRE(r.code == 0);
  Json summary(r.out);
  const JsonValue& top = summary.root()["top"]["cpu"].array().at(0);
  const std::string pid = std::to_string(int64_t(top["pid"]));
  const std::string comm{std::string_view(top["comm"])};

  r = Run({"play", "--format", "openmetrics", "--instance", "h", path});
  REQUIRE(r.code == 0);
  Exposition e = ParseExposition(r.out);
  CHECK(e.errors.empty());
  CAPTURE(pid);
  const std::string labels = "{pid=\"" + pid + "\",comm=\"" + comm + "\",mode=\"";
  const double user = LastValue(e, "perfmonger_proctable_cpu_seconds_total" + labels + "user\",instance=\"h\"}");
  const double system = LastValue(e, "perfmonger_proctable_cpu_seconds_total" + labels + "system\",instance=\"h\"}");
  CHECK(std::abs(user - double(top["usr_s"])) <= 0.0051);
  CHECK(std::abs(system - double(top["sys_s"])) <= 0.0051);
  const double cpu = double(top["cpu_s"]);
  CHECK(cpu >= 1.9);
  CHECK(std::abs(user + system - cpu) <= 0.01 * cpu + 0.01);
  CHECK(e.types["perfmonger_proctable_resident_memory_bytes"] == "gauge");
  busy.End();
}

}  // namespace
}  // namespace pm::test
