#include "tools/readers/noise_options.hh"

#include <charconv>
#include <cmath>
#include <string>

#include "common/error.hh"

namespace pm {
namespace {

Option<NoiseThresholds> Threshold(std::string_view name, std::string help, std::string_view brief,
                                  double NoiseThresholds::*field) {
  return MakeOption<NoiseThresholds>(
      {.name = name, .value = "PCT", .help = std::move(help), .brief = brief,
       .section = "Verdict:"},
      [name, field](NoiseThresholds& t, const Given& g) { t.*field = ParsePercent(g.value, name); });
}

std::vector<Option<NoiseThresholds>> Build() {
  return {
      Threshold("noisy-cpu",
                "NOISY when one process outside the system under\n"
                "test (or those that came and went) used PCT % of a\n"
                "core or more over a phase (default 10)",
                "NOISY at another process's PCT % of a core (10)", &NoiseThresholds::cpu_pct),
      Threshold("noisy-io",
                "NOISY when I/O outside the system under test kept\n"
                "the disks busy PCT % of a phase or more (default 10)",
                "NOISY when others' I/O kept disks PCT % busy (10)", &NoiseThresholds::io_pct),
      Threshold("noisy-steal",
                "NOISY when CPU steal reached PCT % of the machine\n"
                "(default 5)",
                "NOISY when CPU steal reached PCT % (5)", &NoiseThresholds::steal_pct),
      Threshold("noisy-pressure",
                "NOISY when PSI cpu some reached PCT % of a phase\n"
                "(default 10; needs --record-pressure)",
                "NOISY when PSI cpu some reached PCT % (10)", &NoiseThresholds::pressure_pct),
  };
}

}  // namespace

const std::vector<Option<NoiseThresholds>>& NoiseOptions() {
  static const std::vector<Option<NoiseThresholds>> options = Build();
  return options;
}

double ParsePercent(std::string_view value, std::string_view option) {
  std::string_view digits = value;
  if (digits.ends_with('%')) digits.remove_suffix(1);
  double v = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() ||
      !std::isfinite(v) || v < 0)
    throw UsageError("--" + std::string(option) + " '" + std::string(value) +
                     "': not a percentage (write e.g. --" + std::string(option) + " 10)");
  return v;
}

}  // namespace pm
