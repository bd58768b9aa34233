#include "playback/statistics/use_output.hh"

#include <algorithm>

#include "playback/statistics/use_span.hh"
#include "proto/json.hh"
#include "proto/text.hh"

namespace pm {
namespace {

std::string Fixed(double v, int precision) {
  std::string s;
  AppendFixed(s, v, precision);
  return s;
}

std::string Ms(double seconds) { return Fixed(seconds * 1000.0, 0); }

// "in 14 bursts of 180 to 220 ms"
std::string BurstText(const UseBursts& b) {
  std::string out = "in " + std::to_string(b.count) + (b.count == 1 ? " burst of " : " bursts of ");
  if (b.count > 1 && Ms(b.shortest) != Ms(b.longest)) out += Ms(b.shortest) + " to ";
  return out + Ms(b.longest) + " ms";
}

void SignalText(std::string& out, const UseSignal& s) {
  out.append("    ").push_back(s.letter);
  out.append(" ").append(s.label).append(": ");
  if (s.events) {
    out.append(Fixed(s.total, 0)).append(" over the span, max ");
    out.append(Fixed(s.max, 2)).append(" ").append(s.unit);
  } else {
    out.append("mean ").append(Fixed(s.mean, 2)).append(" ").append(s.unit);
    out.append(", p99 ").append(Fixed(s.p99, 2)).append(", max ").append(Fixed(s.max, 2));
  }
  if (s.saturates) out.append("; over ").append(Fixed(s.over, 1)).append(" % of the time");
  if (s.baseline >= 0) out.append("; at low load ").append(Fixed(s.baseline, 2)).append(" ms");
  out.push_back('\n');
}

const UseSignal* Find(const UseResource& r, std::string_view label) {
  for (const UseSignal& s : r.signals)
    if (s.label == label) return &s;
  return nullptr;
}

// The figures that decided it: each saturating signal that crossed.
std::string Decided(const UseResource& r) {
  std::string out = r.name + ": saturated " + Fixed(r.saturated, 1) + " % of the time";
  if (r.bursts.count) out += ", " + BurstText(r.bursts);
  const char* sep = "; ";
  for (const UseSignal& s : r.signals) {
    if (!s.saturates || s.over <= 0) continue;
    out.append(sep).append(s.label).append(s.events ? " " : " p99 ");
    out.append(s.events ? Fixed(s.total, 0) : Fixed(s.p99, 2));
    if (!s.events && s.unit == "%") out.append(" %");
    sep = ", ";
  }
  return out;
}

std::vector<const UseResource*> Saturated(const std::vector<UseResource>& all, double share) {
  std::vector<const UseResource*> out;
  for (const UseResource& r : all)
    if (r.saturated >= share && r.saturated > 0) out.push_back(&r);
  std::stable_sort(out.begin(), out.end(), [](const UseResource* a, const UseResource* b) {
    return a->saturated > b->saturated;
  });
  return out;
}

std::string CpuContext(const std::vector<UseResource>& all) {
  for (const UseResource& r : all)
    if (r.name == "CPU")
      if (const UseSignal* busy = Find(r, "busy")) return "CPU " + Fixed(busy->mean, 2) + " %";
  return "";
}

// "; errors: memory OOM kills 140, TCP resets sent 2": every error counted,
// saturated or not (with no swap, a memory cgroup over its limit is OOM
// killed rather than stalled: its errors, not its saturation, name it).
std::string ErrorsOf(const std::vector<UseResource>& all) {
  std::string out;
  for (const UseResource& r : all)
    for (const UseSignal& s : r.signals) {
      if (s.letter != 'E' || !s.events || s.total <= 0) continue;
      out.append(out.empty() ? "; errors: " : ", ").append(r.name).push_back(' ');
      out.append(s.label).push_back(' ');
      out.append(Fixed(s.total, 0));
    }
  return out;
}

std::string VerdictOf(const std::vector<UseResource>& all, double share) {
  const std::vector<const UseResource*> hot = Saturated(all, share);
  const std::string cpu = CpuContext(all);
  if (hot.empty())
    return "no resource saturated" + (cpu.empty() ? "" : " (" + cpu + ")") + ErrorsOf(all);
  std::string out = Decided(*hot[0]);
  if (hot[0]->name != "CPU" && !cpu.empty()) out += "; " + cpu;
  for (size_t i = 1; i < hot.size(); ++i)
    out += (i == 1 ? "; also saturated: " : ", ") + hot[i]->name + " " +
           Fixed(hot[i]->saturated, 1) + " %";
  return out + ErrorsOf(all);
}

void Heading(std::string& out, const UseSpan& span) {
  const UseThresholds& t = span.thresholds();
  out.append("* USE: utilisation, saturation, errors over ");
  AppendUint(out, span.intervals());
  out.append(span.intervals() == 1 ? " interval" : " intervals");
  out.append(" of up to ").append(Fixed(span.max_interval() * 1000.0, 0)).append(" ms\n");
  out.append("  (saturated: busy >= ").append(Fixed(t.busy, 0)).append(" %, PSI > ");
  out.append(Fixed(t.psi, 0)).append(" %, aqu-sz > ").append(Fixed(t.queue, 0));
  out.append(", any run queue beyond the CPUs, drop, swap, direct reclaim or throttling;\n");
  out.append("   named when saturated >= ").append(Fixed(t.share, 0)).append(" % of the time");
  if (t.gap > 0) out.append("; saturated stretches under ").append(Fixed(t.gap * 1000.0, t.gap < 0.01 ? 1 : 0));
  out.append(t.gap > 0 ? " ms apart are one burst" : "; each saturated stretch is a burst");
  if (span.max_interval() >= 1.0) out.append("; bursts shorter than an interval are averaged away");
  out.append(")\n");
}

}  // namespace

std::string UseVerdict(const UseSpan& span) {
  return VerdictOf(span.Results(), span.thresholds().share);
}

std::string UseBinding(const UseSpan& span) {
  const std::vector<UseResource> all = span.Results();  // outlives the pointers to it
  const std::vector<const UseResource*> hot = Saturated(all, span.thresholds().share);
  return hot.empty() ? std::string() : hot[0]->name;
}

void AppendUseText(std::string& out, const UseSpan& span) {
  if (span.intervals() == 0) return;
  Heading(out, span);
  const std::vector<UseResource> all = span.Results();
  for (const UseResource& r : all) {
    out.append("  ");
    AppendPrintable(out, r.name);  // a device's or a cgroup's name as recorded
    out.append(": saturated ").append(Fixed(r.saturated, 1)).append(" % of the time");
    if (r.bursts.count) out.append(", ").append(BurstText(r.bursts));
    out.push_back('\n');
    for (const UseSignal& s : r.signals) SignalText(out, s);
    for (const std::string& m : r.missing) out.append("    ").append(m).push_back('\n');
  }
  out.append("USE verdict: ").append(VerdictOf(all, span.thresholds().share)).append("\n\n");
}

}  // namespace pm

namespace pm {
namespace {

void SignalJson(std::string& out, const UseSignal& s) {
  JsonObjectWriter o(out);
  o.Str("letter", std::string(1, s.letter)).Str("label", s.label).Str("unit", s.unit);
  if (s.events) AppendFixed(o.Key("total"), s.total, 0);
  AppendFixed(o.Key("mean"), s.mean, 3);
  AppendFixed(o.Key("p99"), s.p99, 3);
  AppendFixed(o.Key("max"), s.max, 3);
  if (s.saturates) AppendFixed(o.Key("over"), s.over, 3);
  if (s.baseline >= 0) AppendFixed(o.Key("low_load"), s.baseline, 3);
  o.Close();
}

void ResourceJson(std::string& out, const UseResource& r) {
  JsonObjectWriter o(out);
  o.Str("name", r.name);
  AppendFixed(o.Key("saturated"), r.saturated, 3);
  JsonObjectWriter b(o.Key("bursts"));
  b.Uint("count", r.bursts.count);
  AppendFixed(b.Key("longest"), r.bursts.longest, 3);
  AppendFixed(b.Key("shortest"), r.bursts.shortest, 3);
  b.Close();
  std::string& signals = o.Key("signals");
  signals.push_back('[');
  for (size_t i = 0; i < r.signals.size(); ++i) {
    if (i) signals.push_back(',');
    SignalJson(signals, r.signals[i]);
  }
  signals.push_back(']');
  std::string& missing = o.Key("missing");
  missing.push_back('[');
  for (size_t i = 0; i < r.missing.size(); ++i) {
    if (i) missing.push_back(',');
    AppendJsonString(missing, r.missing[i]);
  }
  missing.push_back(']');
  o.Close();
}

}  // namespace

void AppendUseJson(std::string& out, const UseSpan& span) {
  const UseThresholds& t = span.thresholds();
  const std::vector<UseResource> all = span.Results();
  out.append(",\"use\":");
  JsonObjectWriter o(out);
  o.Uint("intervals", span.intervals());
  AppendFixed(o.Key("interval_max"), span.max_interval(), 3);
  JsonObjectWriter th(o.Key("thresholds"));
  for (auto [key, v] : {std::pair{"busy", t.busy}, {"psi", t.psi}, {"queue", t.queue},
                        {"share", t.share}})
    AppendFixed(th.Key(key), v, 2);
  AppendFixed(th.Key("gap"), t.gap, 3);
  th.Close();
  std::string& list = o.Key("resources");
  list.push_back('[');
  for (size_t i = 0; i < all.size(); ++i) {
    if (i) list.push_back(',');
    ResourceJson(list, all[i]);
  }
  list.push_back(']');
  const std::string binding = UseBinding(span);
  if (binding.empty()) o.Raw("binding", "null");
  else o.Str("binding", binding);
  o.Str("verdict", VerdictOf(all, t.share));
  o.Close();
}

}  // namespace pm
