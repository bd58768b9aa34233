#include "tools/plot_args.hh"

#include <getopt.h>

#include <charconv>
#include <cmath>
#include <string_view>
#include <vector>

#include "common/error.hh"
#include "tools/duration.hh"

namespace pm {

const char kPlotUsage[] = R"(Usage: perfmonger plot [options] FILE

Draw a recording's charts with gnuplot: cpu (all CPUs, stacked usage),
allcpu (one strip per core), disk-iops, disk-transfer, mem and net, each
titled with the recording's host, start time and metadata. Pauses show as
shaded gaps, marks as labelled vertical lines. FILE '-' is standard input.

Options:
  -o, --output-dir DIR       write the charts into DIR (created when
                             missing; default: the current directory)
  -T, --output-type TYPE     pdf (default), png or svg
  -p, --prefix PREFIX        put PREFIX before every file name written
  -s, --save                 keep the data files (cpu.dat, disk.dat, mem.dat,
                             net.dat) and gnuplot scripts (*.gp) in DIR; they
                             are written even when gnuplot is missing
      --offset-time SEC      start the time axis SEC seconds into the recording
      --disk-only REGEX      draw only the disks whose name matches REGEX
      --plot-read-only       disk charts: reads only
      --plot-write-only      disk charts: writes only
      --plot-read-write      disk charts: reads and writes (the default)
      --plot-numkey-threshold N
                             hide a chart's legend when it has more than N
                             entries (default 10)
      --plot-iops-max IOPS   top of the disk-iops axis (default: automatic)
      --with-gnuplot PATH    the gnuplot to run (default: gnuplot on PATH;
                             Debian package gnuplot-nox)
  -h, --help                 show this help

Boolean options also take PerfMonger's --FLAG=true|false form.
Exit status: 0 drawn (a truncated recording too, with a warning), 1 usage
error, unreadable input, gnuplot missing or failing, 2 corrupt recording.
)";

namespace {

enum LongOnly {
  kOffsetTime = 256, kDiskOnly, kReadOnly, kWriteOnly, kReadWrite,
  kNumkeyThreshold, kIopsMax, kWithGnuplot,
};

const struct option kPlotOptions[] = {
    {"output-dir", required_argument, nullptr, 'o'},
    {"output-type", required_argument, nullptr, 'T'},
    {"prefix", required_argument, nullptr, 'p'},
    {"save", optional_argument, nullptr, 's'},
    {"offset-time", required_argument, nullptr, kOffsetTime},
    {"disk-only", required_argument, nullptr, kDiskOnly},
    {"plot-read-only", optional_argument, nullptr, kReadOnly},
    {"plot-write-only", optional_argument, nullptr, kWriteOnly},
    {"plot-read-write", optional_argument, nullptr, kReadWrite},
    {"plot-numkey-threshold", required_argument, nullptr, kNumkeyThreshold},
    {"plot-iops-max", required_argument, nullptr, kIopsMax},
    {"with-gnuplot", required_argument, nullptr, kWithGnuplot},
    {"help", no_argument, nullptr, 'h'},
    {nullptr, 0, nullptr, 0},
};

constexpr char kSee[] = " (see perfmonger plot --help)";

// A boolean flag: bare, or PerfMonger's --FLAG=true|false.
bool Flag(const char* name, const char* arg) {
  if (arg == nullptr) return true;
  std::string_view v = arg;
  if (v == "true" || v == "1") return true;
  if (v == "false" || v == "0") return false;
  throw UsageError(std::string("--") + name + "=" + arg + ": give true or false" + kSee);
}

double NonNegative(const char* name, const char* arg) {
  double v = 0;
  std::string_view text = arg;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < 0)
    throw UsageError(std::string("--") + name + " '" + arg +
                     "': give a number, 0 or more" + kSee);
  return v;
}

ChartType Type(const char* arg) {
  std::string_view v = arg;
  if (v == "pdf") return ChartType::kPdf;
  if (v == "png") return ChartType::kPng;
  if (v == "svg") return ChartType::kSvg;
  throw UsageError(std::string("--output-type '") + arg + "': give pdf, png or svg" + kSee);
}

DiskFilter DiskRegex(const char* text) {
  try {
    return DiskFilter(text);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--disk-only '") + text +
                     "': not a regular expression (" + e.what() + ")");
  }
}

double OffsetSeconds(const char* arg) {
  std::optional<int64_t> ns = ParseDurationNs(arg);
  if (!ns)
    throw UsageError(std::string("--offset-time '") + arg +
                     "': give seconds (2.5) or a duration (500ms)" + kSee);
  return static_cast<double>(*ns) / 1e9;
}

void Apply(PlotArgs& a, int opt, const char* arg) {
  switch (opt) {
    case 'o': a.output_dir = arg; break;
    case 'T': a.type = Type(arg); break;
    case 'p': a.prefix = arg; break;
    case 's': a.save = Flag("save", arg); break;
    case 'h': a.help = true; break;
    case kOffsetTime: a.offset_time = OffsetSeconds(arg); break;
    case kDiskOnly: a.disk_only = DiskRegex(arg); break;
    case kReadOnly:
      if (Flag("plot-read-only", arg)) a.directions = {true, false};
      break;
    case kWriteOnly:
      if (Flag("plot-write-only", arg)) a.directions = {false, true};
      break;
    case kReadWrite:
      if (Flag("plot-read-write", arg)) a.directions = {true, true};
      break;
    case kNumkeyThreshold: {
      double n = NonNegative("plot-numkey-threshold", arg);
      if (n != std::floor(n) || n > 1e6)
        throw UsageError(std::string("--plot-numkey-threshold '") + arg +
                         "': give a whole number" + kSee);
      a.numkey_threshold = static_cast<int>(n);
      break;
    }
    case kIopsMax: a.iops_max = NonNegative("plot-iops-max", arg); break;
    case kWithGnuplot: a.gnuplot = arg; break;
  }
}

}  // namespace

PlotArgs ParsePlotArgs(int argc, char** argv) {
  PlotArgs a;
  optind = 0;  // 0: glibc re-reads the "+" (no permutation) of each call
  opterr = 0;
  int opt;
  while ((opt = getopt_long(argc, argv, ":o:T:p:sh", kPlotOptions, nullptr)) != -1) {
    if (opt == '?' || opt == ':') {
      bool short_option = optopt > 0 && optopt < 256;
      std::string name = short_option ? std::string("-") + static_cast<char>(optopt)
                                      : std::string(argv[optind - 1]);
      throw UsageError(std::string(opt == ':' ? "option needs a value: "
                                              : "unknown option: ") + name + kSee);
    }
    Apply(a, opt, optarg);
  }
  if (a.help) return a;
  std::vector<std::string> files(argv + optind, argv + argc);
  if (files.empty())
    throw UsageError(std::string("no recording named: give FILE, or '-' for "
                                 "standard input") + kSee);
  if (files.size() > 1)
    throw UsageError("one recording at a time: unexpected '" + files[1] + "'" + kSee);
  if (a.output_dir.empty()) throw UsageError(std::string("--output-dir: give a directory") + kSee);
  a.file = files[0];
  return a;
}

const char* ChartExtension(ChartType type) {
  switch (type) {
    case ChartType::kPng: return "png";
    case ChartType::kSvg: return "svg";
    case ChartType::kPdf: break;
  }
  return "pdf";
}

}  // namespace pm
