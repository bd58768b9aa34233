#include "tools/readers/use_options.hh"

#include <string>

#include "tools/duration.hh"
#include "tools/readers/noise_options.hh"

namespace pm {
namespace {

Option<UseThresholds> Threshold(std::string_view name, std::string_view value, std::string help,
                                std::string_view brief, double UseThresholds::*field) {
  return MakeOption<UseThresholds>(
      {.name = name, .value = value, .help = std::move(help), .brief = brief,
       .section = "USE (with --use):"},
      [name, field](UseThresholds& t, const Given& g) { t.*field = ParsePercent(g.value, name); });
}

std::vector<Option<UseThresholds>> Build() {
  return {
      Threshold("use-busy", "PCT",
                "an interval saturates a CPU or a disk busy PCT % of\n"
                "it or more (default 95)",
                "saturated at PCT % busy (95)", &UseThresholds::busy),
      Threshold("use-psi", "PCT",
                "an interval saturates when PSI some (cpu, memory,\n"
                "io; a cgroup's too) passes PCT % of it (default 10)",
                "saturated past PSI some PCT % (10)", &UseThresholds::psi),
      Threshold("use-queue", "N",
                "an interval saturates a disk whose aqu-sz passes N\n"
                "(default 1)",
                "disk saturated past aqu-sz N (1)", &UseThresholds::queue),
      Threshold("use-share", "PCT",
                "the verdict names a resource saturated PCT % of the\n"
                "span or more (default 5)",
                "name a resource saturated PCT % of the span (5)", &UseThresholds::share),
      MakeOption<UseThresholds>(
          {.name = "use-gap", .value = "DUR",
           .help = "saturated stretches less than DUR apart are one\n"
                   "burst (default 50ms; 0: each stretch is one)",
           .brief = "one burst: saturated stretches under DUR apart (50ms)",
           .section = "USE (with --use):"},
          [](UseThresholds& t, const Given& g) {
            t.gap = static_cast<double>(DurationArgument("use-gap", g.value)) / 1e9;
          }),
  };
}

}  // namespace

const std::vector<Option<UseThresholds>>& UseOptions() {
  static const std::vector<Option<UseThresholds>> options = Build();
  return options;
}

}  // namespace pm
