#include "tools/record_args.hh"

#include <getopt.h>

#include <cstdlib>
#include <string>
#include <string_view>

#include "common/error.hh"
#include "tools/duration.hh"

namespace pm {

const char kRecordUsage[] = R"(Usage: perfmonger record [options]

Record per-CPU, disk, network and memory activity into a recording (.pgr).

Options:
  -l, --logfile PATH     output (default perfmonger.pgr.gz); compressed by
                         name: .gz gzip, .zst zstd, anything else plain
  -i, --interval DUR     sampling interval (default 1s); seconds or 500ms, 2s
  -s, --start-delay DUR  wait before the first sample (default 0)
  -t, --timeout DUR      stop after DUR (default 0: until stopped)
  -d, --disk DEV[,DEV]   record only these devices (repeatable)
      --record-intr      record /proc/interrupts too
      --no-cpu           do not record CPU usage
      --no-disk          do not record disk I/O
      --no-net           do not record network I/O
      --no-mem           do not record memory usage
      --no-gzip          plain output (default name perfmonger.pgr)
      --format-version N 1 (default): absolute counters; 2: differences
                         from the sample before, with keyframes (smaller)
      --no-interval-backoff  accepted; the interval never changes anyway
      --ready-fd N       write one JSON ready line to fd N once the first
                         sample is on disk, then close it
      --stop-fd N        stop gracefully at EOF on fd N (0 = stdin)
      --cmd-fd N         read commands from fd N: pause, resume (disable,
                         enable), mark LABEL, sample, ping, status, stop
      --ack-fd N         write one JSON reply per command to fd N
      --start-paused     write the header and ready line, sample from resume
      --meta KEY=VALUE   add metadata (repeatable; percent-encoded halves)
      --root DIR         read proc/ and sys/ below DIR (default /; testing)
  -v, --verbose          accepted for compatibility
  -h, --help             show this help

Background session (one per user; not with the fd options above):
      --background       start detached; print one JSON child_ready line
                         and exit 0 ready, 1 error, 2 timeout
      --ready-timeout DUR  how long to wait for the child after -s (default 5s)
      --log FILE         the child's stdout and stderr (default /dev/null)
      --status           show the running session (--json: as JSON)
      --kill             stop it; wait until it is closed and its process gone
      --kill-timeout DUR how long --kill waits (default 10s)

Stops at SIGINT, SIGTERM, --timeout or EOF on --stop-fd, with a final
sample at that instant. Exit status: 0 recorded, 1 setup error (nothing
recorded), 2 collection error (what was written before it is kept).
)";

namespace {

enum LongOnly {
  kRecordIntr = 256, kNoCpu, kNoDisk, kNoNet, kNoMem, kNoGzip, kNoBackoff,
  kReadyFd, kStopFd, kMeta, kRoot, kBackground, kBackgroundChild, kReadyTimeout,
  kLog, kStatus, kKill, kKillTimeout, kJson, kCmdFd, kAckFd, kStartPaused, kFormatVersion,
};

const struct option kOptions[] = {
    {"logfile", required_argument, nullptr, 'l'},
    {"interval", required_argument, nullptr, 'i'},
    {"start-delay", required_argument, nullptr, 's'},
    {"timeout", required_argument, nullptr, 't'},
    {"disk", required_argument, nullptr, 'd'},
    {"verbose", no_argument, nullptr, 'v'},
    {"help", no_argument, nullptr, 'h'},
    {"record-intr", no_argument, nullptr, kRecordIntr},
    {"no-cpu", no_argument, nullptr, kNoCpu},
    {"no-disk", no_argument, nullptr, kNoDisk},
    {"no-net", no_argument, nullptr, kNoNet},
    {"no-mem", no_argument, nullptr, kNoMem},
    {"no-gzip", no_argument, nullptr, kNoGzip},
    {"no-interval-backoff", no_argument, nullptr, kNoBackoff},
    {"ready-fd", required_argument, nullptr, kReadyFd},
    {"stop-fd", required_argument, nullptr, kStopFd},
    {"meta", required_argument, nullptr, kMeta},
    {"root", required_argument, nullptr, kRoot},
    {"background", no_argument, nullptr, kBackground},
    {"background-child", no_argument, nullptr, kBackgroundChild},
    {"ready-timeout", required_argument, nullptr, kReadyTimeout},
    {"log", required_argument, nullptr, kLog},
    {"status", no_argument, nullptr, kStatus},
    {"kill", no_argument, nullptr, kKill},
    {"kill-timeout", required_argument, nullptr, kKillTimeout},
    {"json", no_argument, nullptr, kJson},
    {"cmd-fd", required_argument, nullptr, kCmdFd},
    {"ack-fd", required_argument, nullptr, kAckFd},
    {"start-paused", no_argument, nullptr, kStartPaused},
    {"format-version", required_argument, nullptr, kFormatVersion},
    {nullptr, 0, nullptr, 0},
};

int64_t Duration(std::string_view flag, const char* text) {
  std::optional<int64_t> ns = ParseDurationNs(text);
  if (!ns)
    throw UsageError(std::string(flag) + " '" + text +
                     "': not a duration (write seconds like 0.5, or 500ms, 2s)");
  return *ns;
}

int FdNumber(std::string_view flag, const char* text) {
  char* end = nullptr;
  errno = 0;
  long fd = std::strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || errno != 0 || fd < 0 || fd > INT32_MAX)
    throw UsageError(std::string(flag) + " '" + text +
                     "': not a file descriptor number (write e.g. " +
                     std::string(flag) + "=3)");
  return static_cast<int>(fd);
}

void AddDisks(std::vector<std::string>& disks, std::string_view list) {
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view name = list.substr(0, comma);
    if (!name.empty()) disks.emplace_back(name);
    list.remove_prefix(comma == std::string_view::npos ? list.size() : comma + 1);
  }
}

void ApplyOption(int opt, const char* arg, RecordArgs& p) {
  RecordConfig& c = p.config;
  switch (opt) {
    case 'l': c.output = arg; p.output_given = true; break;
    case 'i': c.interval_ns = Duration("--interval", arg); break;
    case 's': c.start_delay_ns = Duration("--start-delay", arg); break;
    case 't': c.timeout_ns = Duration("--timeout", arg); break;
    case 'd': AddDisks(c.collectors.disks, arg); break;
    case 'v': case kNoBackoff: break;
    case 'h': p.help = true; break;
    case kRecordIntr: c.collectors.intr = true; break;
    case kNoCpu: c.collectors.cpu = false; break;
    case kNoDisk: c.collectors.disk = false; break;
    case kNoNet: c.collectors.net = false; break;
    case kNoMem: c.collectors.mem = false; break;
    case kNoGzip: c.no_gzip = true; break;
    case kReadyFd: c.ready_fd = FdNumber("--ready-fd", arg); break;
    case kStopFd: c.stop_fd = FdNumber("--stop-fd", arg); break;
    case kMeta: c.meta_args.emplace_back(arg); break;
    case kRoot: c.root = arg; break;
    case kBackground: p.background = true; break;
    case kBackgroundChild: c.session = true; break;
    case kReadyTimeout: p.ready_timeout_ns = Duration("--ready-timeout", arg); break;
    case kLog: p.log_path = arg; break;
    case kStatus: p.status = true; break;
    case kKill: p.kill = true; break;
    case kKillTimeout: p.kill_timeout_ns = Duration("--kill-timeout", arg); break;
    case kJson: p.json = true; break;
    case kCmdFd: c.cmd_fd = FdNumber("--cmd-fd", arg); break;
    case kAckFd: c.ack_fd = FdNumber("--ack-fd", arg); break;
    case kStartPaused: c.start_paused = true; break;
    case kFormatVersion:
      if (std::string_view(arg) != "1" && std::string_view(arg) != "2")
        throw UsageError(std::string("--format-version '") + arg + "': write 1 or 2");
      c.format_version = arg[0] - '0';
      break;
    default:
      throw UsageError("unknown option (see perfmonger record --help)");
  }
}

void CheckCombination(const RecordArgs& p) {
  const RecordConfig& c = p.config;
  if (p.background && (c.ready_fd || c.stop_fd || c.cmd_fd || c.ack_fd))
    throw UsageError(
        "--background cannot be combined with --ready-fd, --stop-fd, --cmd-fd "
        "or --ack-fd (the detached child would not inherit them); drop one or "
        "the other");
  if (c.start_paused && !c.cmd_fd)
    throw UsageError("--start-paused needs --cmd-fd (only a resume command ends the pause)");
  if (c.ack_fd && !c.cmd_fd)
    throw UsageError("--ack-fd needs --cmd-fd (it carries the replies to commands)");
  if (p.status && p.kill)
    throw UsageError("--status and --kill exclude each other; give one");
  if (p.json && !p.status)
    throw UsageError("--json goes with --status");
  if (c.session && !c.ready_fd)
    throw UsageError("--background-child is internal to --background");
  if (c.interval_ns < 1'000'000)
    throw UsageError("--interval must be at least 1ms");
}

}  // namespace

RecordArgs ParseRecordArgs(int argc, char** argv) {
  int first_operand = 0;
  return ParseRecordArgsFor(argc, argv, CommandOptions(), first_operand);
}

namespace {

bool OwnsOption(const CommandOptions& command, int opt) {
  if (opt > 0 && opt < 256 && command.short_options.find(static_cast<char>(opt)) !=
                                  std::string::npos)
    return true;
  for (const struct option& o : command.long_options)
    if (o.val == opt) return true;
  return false;
}

}  // namespace

RecordArgs ParseRecordArgsFor(int argc, char** argv, const CommandOptions& command,
                              int& first_operand) {
  RecordArgs p;
  std::vector<struct option> options = command.long_options;
  options.insert(options.end(), std::begin(kOptions), std::end(kOptions));
  std::string short_options = std::string(command.operands ? "+" : "") +
                              ":l:i:s:t:d:vh" + command.short_options;
  std::string see = std::string(" (see perfmonger ") + command.command + " --help)";
  optind = 0;  // 0: glibc re-reads the "+" (no permutation) of each call
  opterr = 0;
  int opt;
  while ((opt = getopt_long(argc, argv, short_options.c_str(), options.data(),
                            nullptr)) != -1) {
    if (opt == '?' || opt == ':') {
      // A short option is named by optopt; a long one only by its word.
      bool short_option = optopt > 0 && optopt < 256;
      std::string name = short_option ? std::string("-") + static_cast<char>(optopt)
                                      : std::string(argv[optind - 1]);
      throw UsageError(std::string(opt == ':' ? "option needs a value: "
                                              : "unknown option: ") +
                       name + see);
    }
    if (OwnsOption(command, opt)) command.apply(opt, optarg);
    else ApplyOption(opt, optarg, p);
  }
  first_operand = optind;
  if (!command.operands && optind < argc)
    throw UsageError(std::string("unexpected argument '") + argv[optind] + "'" + see);
  if (p.config.no_gzip && !p.output_given) p.config.output = "perfmonger.pgr";
  CheckCombination(p);
  return p;
}

std::vector<std::string> ChildArgs(const RecordConfig& c, const std::string& output) {
  // Durations in nanoseconds, which ParseDurationNs reads back exactly.
  auto ns = [](int64_t v) { return std::to_string(v) + "ns"; };
  std::vector<std::string> args = {"record", "--background-child",
                                   "-l", output,
                                   "-i", ns(c.interval_ns),
                                   "-s", ns(c.start_delay_ns),
                                   "-t", ns(c.timeout_ns),
                                   "--root", c.root};
  for (const std::string& disk : c.collectors.disks) args.insert(args.end(), {"-d", disk});
  for (const std::string& meta : c.meta_args) args.insert(args.end(), {"--meta", meta});
  if (c.collectors.intr) args.push_back("--record-intr");
  if (!c.collectors.cpu) args.push_back("--no-cpu");
  if (!c.collectors.disk) args.push_back("--no-disk");
  if (!c.collectors.net) args.push_back("--no-net");
  if (!c.collectors.mem) args.push_back("--no-mem");
  if (c.no_gzip) args.push_back("--no-gzip");
  return args;
}

}  // namespace pm
