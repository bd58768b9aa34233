#include "tools/readers/play_export.hh"

#include <cstdio>
#include <cstdlib>

#include "common/io.hh"
#include "playback/outputs/export_openmetrics.hh"
#include "tools/readers/clock_warning.hh"

namespace pm {
namespace {

class StdoutStream final : public OutputStream {
 public:
  void Write(std::string_view bytes) override { WriteAll(1, bytes); }
  void Flush() override {}
  void Finish() override {}
};

}  // namespace

std::string SpoolDir() {
  const char* dir = std::getenv("TMPDIR");
  return dir != nullptr && *dir != '\0' ? dir : "/tmp";
}

void ExportOpenMetrics(const PlayArgs& args, RecordingInput& input) {
  OpenMetricsOptions options;
  options.instance = args.instance.value_or(input.info().host);
  options.job = args.job.value_or("");
  options.labels = args.labels;
  options.disk_only = args.disk_only ? &*args.disk_only : nullptr;
  options.spool_dir = SpoolDir();
  OpenMetricsExport exporter(input.info(), options);
  ClockHistory clocks(input.info());
  RawSample sample;
  RecordingEvent event;
  for (;;) {
    RecordingReader::Item item = input.Next(sample, event);
    if (item == RecordingReader::Item::kEnd) break;
    if (item == RecordingReader::Item::kSample) exporter.OnSample(sample);
    else exporter.OnEvent(event), clocks.OnEvent(event);
  }
  if (HostsMeet(args)) WarnOfClock(input.name(), clocks);
  StdoutStream out;
  exporter.Write(out);
  if (exporter.samples_dropped() > 0)
    std::fprintf(stderr,
                 "warning: %s: %llu samples not later than the one before (to the "
                 "millisecond) left out: a series' timestamps must increase\n",
                 input.name().c_str(),
                 static_cast<unsigned long long>(exporter.samples_dropped()));
}

}  // namespace pm
