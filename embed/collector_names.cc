#include "embed/collector_names.hh"

#include <errno.h>

#include "proto/pgr_collectors.hh"

namespace pm::embed {
namespace {

// The descriptor named `name`, or nullptr.
const CollectorSpec* Find(const char* name) {
  for (const CollectorSpec& c : kCollectors)
    if (c.name == name) return &c;
  return nullptr;
}

std::string KnownNames() {
  std::string names;
  for (const CollectorSpec& c : kCollectors) {
    if (!c.value.empty()) continue;
    names += names.empty() ? "" : ", ";
    names += c.name;
  }
  return names;
}

int CheckList(perfmonger_recording& rec, const char* field, const char* const* names) {
  for (; names && *names; ++names) {
    const CollectorSpec* c = Find(*names);
    if (c && c->value.empty()) continue;
    const std::string known = KnownNames();
    if (c)
      return rec.Fail(EINVAL, "options.%s names '%s', whose rows are named: use options.%s",
                      field, *names, c->value == "PID" ? "pids" : "cgroups");
    return rec.Fail(EINVAL, "options.%s names no collector '%s' (perfmonger knows: %s)", field,
                    *names, known.c_str());
  }
  return 0;
}

}  // namespace

int CheckCollectorNames(perfmonger_recording& rec, const perfmonger_options& o) {
  if (int err = CheckList(rec, "record", o.record)) return err;
  return CheckList(rec, "skip", o.skip);
}

void AddCollectorFlags(std::vector<std::string>& args, const perfmonger_options& o) {
  auto add = [&](const char* const* names, bool on) {
    for (; names && *names; ++names)
      if (const CollectorSpec* c = Find(*names); c->on_by_default != on)
        args.push_back("--" + std::string(c->flag));
  };
  add(o.record, true);  // off by default: --record-NAME
  add(o.skip, false);   // on by default: --no-NAME
}

}  // namespace pm::embed
