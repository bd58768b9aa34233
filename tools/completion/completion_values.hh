// The values the completion scripts offer for a device, a cgroup or a
// process (`perfmonger completion --values KIND`): read from the running
// system, as the recorder would read it, so that what completes is what
// `record -d`, `--cgroup` and `--pid` accept.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace pm {

enum class ValueList {
  kDevices,  // /proc/diskstats' devices, but empty ones (an unused loop)
  kCgroups,  // every group below the cgroup2 mount, as --cgroup names it
  kPids,     // processes with a command line (no kernel threads, no zombies)
};

// "devices", "cgroups", "pids"; nullopt for another.
std::optional<ValueList> ValueListNamed(std::string_view name);

// One value a line, "VALUE\tDESCRIPTION" where there is one to give
// ("vda\tdisk, 20 GiB", "1234\tpostgres"). Below `root` ("/" on a real
// system); what cannot be read is left out, never an error.
std::string ListValues(ValueList list, const std::string& root = "/");

}  // namespace pm
