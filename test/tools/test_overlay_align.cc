// diff --report's shared time axis (tools/diff/overlay_align.hh): phases
// matched by label each get a slot as long as the longer run's phase,
// both runs' phases start with it and keep their own time; phases one run
// lacks follow; a block's lines break where they pass into another phase.
#include <doctest/doctest.h>

#include <string>

#include "tools/diff/overlay_align.hh"

namespace pm {
namespace {

RunPhases Phases(std::vector<std::string> keys, std::vector<double> starts, double end) {
  return {std::move(keys), std::move(starts), end};
}

}  // namespace

TEST_CASE("by label: one slot per matched phase, as long as the longer of the two") {
  // A: start 0-1, load 1-3, drain 3-4. B: start 0-2, load 2-3, drain 3-6.
  const RunPhases a = Phases({"start", "load", "drain"}, {0, 1, 3}, 4);
  const RunPhases b = Phases({"start", "load", "drain"}, {0, 2, 3}, 6);
  const Timeline t = AlignByLabel(a, b);
  REQUIRE(t.marks.size() == 2);
  CHECK(t.marks[0].label == "load");
  CHECK(t.marks[0].at == 2);  // after the longer start (B's 2 s)
  CHECK(t.marks[1].label == "drain");
  CHECK(t.marks[1].at == 4);  // + the longer load (A's 2 s)
  CHECK(t.end == 7);          // + the longer drain (B's 3 s)
  CHECK(t.shift[0] == std::vector<double>{0, 1, 1});
  CHECK(t.shift[1] == std::vector<double>{0, 0, 1});
}

TEST_CASE("by label: a phase one run lacks gets its own slot after A's") {
  const RunPhases a = Phases({"start", "load"}, {0, 1}, 2);
  const RunPhases b = Phases({"start", "warm", "load"}, {0, 1, 2}, 3);
  const Timeline t = AlignByLabel(a, b);
  REQUIRE(t.marks.size() == 2);
  CHECK(t.marks[0].label == "load");
  CHECK(t.marks[0].at == 1);
  CHECK(t.marks[1].label == "warm (B only)");
  CHECK(t.marks[1].at == 2);
  CHECK(t.end == 3);
  CHECK(t.shift[1] == std::vector<double>{0, 1, -1});  // warm 1 -> 2, load 2 -> 1
}

TEST_CASE("by time: nothing moved, A's marks on the axis") {
  const RunPhases a = Phases({"start", "load"}, {0, 1.5}, 2);
  const RunPhases b = Phases({"start", "other"}, {0, 0.5}, 3);
  const Timeline t = AlignByTime(a, b);
  REQUIRE(t.marks.size() == 1);
  CHECK(t.marks[0].label == "load");
  CHECK(t.marks[0].at == 1.5);
  CHECK(t.end == 3);
  CHECK(Realigned("0.500000\t1\n2.000000\t2\n", t, 1) == "0.500000\t1\n2.000000\t2\n");
}

TEST_CASE("a data file realigned: times moved by their phase's shift, a gap between phases") {
  const RunPhases a = Phases({"start", "load"}, {0, 1}, 2);
  const RunPhases b = Phases({"start", "load"}, {0, 3}, 4);
  const Timeline t = AlignByLabel(a, b);  // load's slot at 3: A's load moved by 2
  const std::string text = "# device: vda\n# elapsed\tr\n0.500000\t1\t2\n1.500000\t3\t4\n"
                           "\n\n\n# device: total\n0.500000\t5\t6\n";
  CHECK(Realigned(text, t, 0) == "# device: vda\n# elapsed\tr\n0.500000\t1\t2\n\n"
                                 "3.500000\t3\t4\n\n\n\n# device: total\n0.500000\t5\t6\n");
  CHECK(Realigned(text, t, 1) == text);  // B's own times are the slots'
}

}  // namespace pm
