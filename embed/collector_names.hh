// The options' collectors by name (perfmonger_options.record, .skip),
// resolved against the descriptors (proto/pgr_collectors.hh, a header of
// constants: nothing of proto/ is linked), so that a collector added to
// perfmonger reaches the library without a field of its own.
#pragma once

#include <string>
#include <vector>

#include "embed/handle.hh"

namespace pm::embed {

// 0, or -EINVAL naming the first unknown name (or one whose rows are
// named: procs, cgroups) and the names perfmonger knows.
int CheckCollectorNames(perfmonger_recording& rec, const perfmonger_options& o);

// `--record-NAME` for `record`'s names that are off by default, `--no-NAME`
// for `skip`'s that are on; the names are known (CheckCollectorNames).
void AddCollectorFlags(std::vector<std::string>& args, const perfmonger_options& o);

}  // namespace pm::embed
