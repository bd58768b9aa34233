// Everyone else by cgroup (phase_cost.hh): the foreign processes of a
// phase summed by their cgroup v2 group, so that noise a benchmark host
// keeps in a group of its own (a container, a systemd unit, a group a CI
// runner made) is named as that group.
#include <algorithm>
#include <cstdio>
#include <map>

#include "playback/outputs/phase_cost.hh"
#include "proto/text.hh"

namespace pm {
namespace {

constexpr size_t kTopGroups = 5;

bool IsNamedGroup(const std::string& cgroup) { return !cgroup.empty() && cgroup != "/"; }

}  // namespace

void GroupForeign(PhaseEveryone& e) {
  std::map<std::string_view, NamedGroup> groups;
  for (const NamedProcess& n : e.top_cpu) {
    if (!IsNamedGroup(n.cgroup) || (n.cpu_s <= 0 && n.read_bytes + n.write_bytes == 0)) continue;
    NamedGroup& g = groups[n.cgroup];
    g.cgroup = n.cgroup;
    g.cpu_s += n.cpu_s;
    g.read_bytes += n.read_bytes, g.write_bytes += n.write_bytes;
    if (g.processes++ == 0 || n.cpu_s > g.busiest.cpu_s) g.busiest = n;
  }
  e.top_groups.clear();
  for (auto& [name, g] : groups)
    if (g.cpu_s > 0) e.top_groups.push_back(std::move(g));
  std::sort(e.top_groups.begin(), e.top_groups.end(),
            [](const NamedGroup& a, const NamedGroup& b) { return a.cpu_s > b.cpu_s; });
  if (e.top_groups.size() > kTopGroups) e.top_groups.resize(kTopGroups);
}

// "cgroup /x used 24.1 % of a core (stress-ng, pid 4242, from 3.21 s)", or
// "(3 processes, the busiest stress-ng, pid 4242)".
std::string GroupReason(const NamedGroup& g, double seconds) {
  std::string r = "cgroup ";
  AppendPrintable(r, g.cgroup);
  r.append(" used ").append(Percent(g.cpu_s / seconds * 100.0)).append(" of a core (");
  if (g.processes > 1) r.append(std::to_string(g.processes)).append(" processes, the busiest ");
  AppendPrintable(r, g.busiest.comm);
  r.append(", pid ").append(std::to_string(g.busiest.pid));
  if (g.processes == 1 && g.busiest.onset_s > 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, ", from %.2f s", g.busiest.onset_s);
    r.append(buf);
  }
  return r.append(")");
}

}  // namespace pm
