// `play --format openmetrics`: the walk over a recording that feeds the
// exporter (playback/outputs/export_openmetrics.hh), to standard output.
#pragma once

#include "tools/readers/reader_args.hh"
#include "tools/readers/recording_input.hh"

namespace pm {

// Where the exports spool: $TMPDIR, else /tmp.
std::string SpoolDir();

// Throws as the readers do; spool errors are std::system_error (exit 1).
void ExportOpenMetrics(const PlayArgs& args, RecordingInput& input);

}  // namespace pm
