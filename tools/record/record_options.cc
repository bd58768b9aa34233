// record's option table (tools/option_table.hh): the recording's own
// options (forwarded to a background child), the embedding fd options and
// the background session's. stat and live take parts of it.
#include "tools/record/record_args.hh"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "common/error.hh"
#include "proto/pgr_collector_spec.hh"
#include "tools/duration.hh"
#include "tools/record/rotate_args.hh"

namespace pm {
namespace {

using Opt = Option<RecordArgs>;
using Apply = std::function<void(RecordArgs&, const Given&)>;

constexpr std::string_view kSession =
    "Background session (one per user; not with the fd options above):";

constexpr char kAbout[] =
    "Record per-CPU, disk, network and memory activity into a recording (.pgr).\n";

constexpr char kFooter[] =
    R"(Stops at SIGINT, SIGTERM, --timeout or EOF on --stop-fd, with a final
sample at that instant. Exit status: 0 recorded, 1 setup error (nothing
recorded), 2 collection error (what was written before it is kept).
)";

int FdNumber(std::string_view flag, std::string_view text) {
  std::string s(text);
  char* end = nullptr;
  errno = 0;
  long fd = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno != 0 || fd < 0 || fd > INT32_MAX)
    throw UsageError("--" + std::string(flag) + " '" + s +
                     "': not a file descriptor number (write e.g. --" +
                     std::string(flag) + "=3)");
  return static_cast<int>(fd);
}

// pgr(5) versions a recorder writes; 2 by default (pgr(5), VERSION 2).
int FormatVersion(std::string_view text) {
  if (text != "1" && text != "2")
    throw UsageError("--format-version '" + std::string(text) + "': write 1 or 2");
  return text[0] - '0';
}

// "vda,/dev/vdb" -> vda vdb: PerfMonger users name devices by their path.
void AddDisks(std::vector<std::string>& disks, std::string_view list) {
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view name = list.substr(0, comma);
    if (name.starts_with("/dev/")) name.remove_prefix(5);
    if (!name.empty()) disks.emplace_back(name);
    list.remove_prefix(comma == std::string_view::npos ? list.size() : comma + 1);
  }
}

// A value option of the recording itself (forwarded to a background child).
Opt Recording(OptionInfo info, Apply apply) {
  Opt o = MakeOption<RecordArgs>(std::move(info), std::move(apply));
  o.to_child = true;
  return o;
}

Opt Front(OptionInfo info, Apply apply) {
  return MakeOption<RecordArgs>(std::move(info), std::move(apply));
}

Opt DurationOption(std::string_view name, char short_name, std::string help,
                   int64_t RecordConfig::*field) {
  return Recording({.name = name, .short_name = short_name, .value = "DUR", .help = help},
                   [name, field](RecordArgs& a, const Given& g) {
                     a.config.*field = DurationArgument(name, g.value);
                   });
}

Opt FdOption(std::string_view name, std::string help, std::string_view brief,
             std::optional<int> RecordConfig::*field) {
  return Front({.name = name, .value = "N", .help = help, .brief = brief},
               [name, field](RecordArgs& a, const Given& g) {
                 a.config.*field = FdNumber(name, g.value);
               });
}

// Completion for the options that name a collector's rows.
struct RowValues {
  std::string_view flag;
  std::string_view brief;  // "": the collector's help fits one line
  Completes completes;
};
constexpr RowValues kRowValues[] = {
    {"pid", "", Completes::kPid},
    {"cgroup", "record cgroup v2 group PATH (repeatable)", Completes::kCgroup},
};

OptionInfo RowOption(const CollectorSpec& spec) {
  OptionInfo info{.name = spec.flag, .value = spec.value, .help = std::string(spec.help)};
  for (const RowValues& v : kRowValues)
    if (v.flag == spec.flag) {
      info.brief = v.brief;
      info.completes = v.completes;
    }
  return info;
}

}  // namespace

// --no-X / --record-X / --pid PID from the collector table: the switches
// of the collectors on by default first, as PerfMonger lists them.
std::vector<Opt> CollectorOptions() {
  std::vector<Opt> table;
  std::vector<size_t> order;
  std::span<const CollectorSpec> collectors = Collectors();
  for (bool on : {true, false})
    for (size_t i = 0; i < collectors.size(); ++i)
      if (collectors[i].on_by_default == on) order.push_back(i);
  for (size_t i : order) {
    const CollectorSpec& spec = collectors[i];
    if (!spec.value.empty()) {  // --pid PID: on once a row is named
      table.push_back(Recording(RowOption(spec),
                                [i](RecordArgs& a, const Given& g) {
                                  a.config.collectors.enabled[i] = true;
                                  a.config.collectors.values[i].emplace_back(g.value);
                                }));
      continue;
    }
    table.push_back(Recording({.name = spec.flag, .help = std::string(spec.help)},
                              [i](RecordArgs& a, const Given& g) {
                                a.config.collectors.enabled[i] =
                                    Collectors()[i].on_by_default ? !g.on : g.on;
                              }));
  }
  return table;
}

namespace {

std::vector<Opt> RecordingOptions() {
  std::vector<Opt> t;
  t.push_back(Front({.name = "logfile", .short_name = 'l', .value = "PATH",
                     .help = "output (default perfmonger.pgr.gz); compressed by\n"
                             "name: .gz gzip, .zst zstd, anything else plain",
                     .brief = "the recording (.gz gzip, .zst zstd, else plain)",
                     .completes = Completes::kFile},
                    [](RecordArgs& a, const Given& g) {
                      a.config.output = g.value;
                      a.output_given = true;
                    }));
  t.push_back(DurationOption("interval", 'i',
                             "sampling interval (default 1s); seconds or 500ms,\n2s, 1m30s",
                             &RecordConfig::interval_ns));
  t.push_back(DurationOption("start-delay", 's', "wait before the first sample (default 0)",
                             &RecordConfig::start_delay_ns));
  t.push_back(DurationOption("timeout", 't', "stop after DUR (default 0: until stopped)",
                             &RecordConfig::timeout_ns));
  t.push_back(Recording({.name = "disk", .short_name = 'd', .value = "DEV[,DEV]",
                         .help = "record only these devices (repeatable; vda or\n/dev/vda)",
                         .brief = "record only these devices (repeatable)",
                         .completes = Completes::kDevice},
                        [](RecordArgs& a, const Given& g) {
                          AddDisks(a.config.collectors.disks, g.value);
                        }));
  for (Opt& o : CollectorOptions()) t.push_back(std::move(o));
  t.push_back(Recording({.name = "record-procs",
                         .help = "record every process that ran, each sample (pid,\n"
                                 "command, cgroup, CPU, run-queue wait, I/O, RSS)",
                         .brief = "record every process that ran, each sample"},
                        [](RecordArgs& a, const Given& g) { a.config.process_table = g.on; }));
  t.push_back(Recording({.name = "no-gzip", .help = "plain output (default name perfmonger.pgr)"},
                        [](RecordArgs& a, const Given& g) { a.config.no_gzip = g.on; }));
  t.push_back(Recording({.name = "format-version", .value = "N",
                         .help = "2 (default): differences from the sample\n"
                                 "before, with keyframes; 1: absolute counters\n"
                                 "(for tools that read raw lines; see cat)",
                         .brief = "2 (default): differences, keyframes; 1: absolute",
                         .choices = "1 2"},
                        [](RecordArgs& a, const Given& g) {
                          a.config.format_version = FormatVersion(g.value);
                        }));
  t.push_back(Recording({.name = "rotate", .value = "WHEN",
                         .help = "daily, hourly or SIZE (64M): one file per period\n"
                                 "in -l DIR/, named by its local date",
                         .brief = "one file per day, hour or SIZE in -l DIR/"},
                        [](RecordArgs& a, const Given& g) {
                          ApplyRotateArgument(a.config.rotate, g.value);
                        }));
  t.push_back(Recording({.name = "keep", .value = "AGE|SIZE",
                         .help = "with --rotate: delete its own files older than\n"
                                 "AGE (28d, 12h) or beyond SIZE in all (10G)",
                         .brief = "with --rotate: delete its files past AGE or SIZE"},
                        [](RecordArgs& a, const Given& g) {
                          ApplyKeepArgument(a.config.rotate, g.value);
                        }));
  t.push_back(Front({.name = "no-interval-backoff",
                     .help = "accepted; the interval never changes anyway"},
                    [](RecordArgs&, const Given&) {}));
  return t;
}

void AddDriverOptions(std::vector<Opt>& t) {
  t.push_back(FdOption("ready-fd",
                       "write one JSON ready line to fd N once the first\n"
                       "sample is on disk, then close it",
                       "write a JSON ready line to fd N once recording",
                       &RecordConfig::ready_fd));
  t.push_back(FdOption("stop-fd", "stop gracefully at EOF on fd N (0 = stdin)", "",
                       &RecordConfig::stop_fd));
  t.push_back(FdOption("cmd-fd",
                       "read commands from fd N: pause, resume (disable,\n"
                       "enable), mark LABEL, sample, ping, status, stop",
                       "read pause, resume, mark, stop... from fd N",
                       &RecordConfig::cmd_fd));
  t.push_back(FdOption("ack-fd", "write one JSON reply per command to fd N", "",
                       &RecordConfig::ack_fd));
  t.push_back(Front({.name = "start-paused",
                     .help = "write the header and ready line, sample from resume"},
                    [](RecordArgs& a, const Given& g) { a.config.start_paused = g.on; }));
  t.push_back(Recording({.name = "meta", .value = "KEY=VALUE",
                         .help = "add metadata (repeatable; percent-encoded halves)"},
                        [](RecordArgs& a, const Given& g) {
                          a.config.meta_args.emplace_back(g.value);
                        }));
  t.push_back(Recording({.name = "root", .value = "DIR",
                         .help = "read proc/ and sys/ below DIR (default /; testing)",
                         .completes = Completes::kDirectory},
                        [](RecordArgs& a, const Given& g) { a.config.root = g.value; }));
  t.push_back(Front({.name = "verbose", .short_name = 'v', .help = "accepted for compatibility"},
                    [](RecordArgs&, const Given&) {}));
  t.push_back(Front({.name = "help", .short_name = 'h', .help = "show this help"},
                    [](RecordArgs& a, const Given& g) { a.help = g.on; }));
}

void AddSessionOptions(std::vector<Opt>& t) {
  auto session = [&t](OptionInfo info, Apply apply) {
    info.section = kSession;
    t.push_back(Front(std::move(info), std::move(apply)));
  };
  session({.name = "background",
           .help = "start detached; print one JSON child_ready line\n"
                   "and exit 0 ready, 1 error, 2 timeout",
           .brief = "start detached; report readiness as one JSON line"},
          [](RecordArgs& a, const Given& g) { a.background = g.on; });
  session({.name = "ready-timeout", .value = "DUR",
           .help = "with --background: how long to wait for the child\n"
                   "after -s (default 5s)",
           .brief = "how long --background waits for the child"},
          [](RecordArgs& a, const Given& g) {
            a.ready_timeout_ns = DurationArgument("ready-timeout", g.value);
          });
  session({.name = "log", .value = "FILE",
           .help = "with --background: the child's stdout and stderr\n(default /dev/null)",
           .brief = "where the background child's output goes",
           .completes = Completes::kFile},
          [](RecordArgs& a, const Given& g) { a.log_path = g.value; });
  session({.name = "status", .help = "show the running session"},
          [](RecordArgs& a, const Given& g) { a.status = g.on; });
  session({.name = "json", .help = "with --status: as one JSON object"},
          [](RecordArgs& a, const Given& g) { a.json = g.on; });
  session({.name = "kill", .help = "stop it; wait until it is closed and its process\ngone"},
          [](RecordArgs& a, const Given& g) { a.kill = g.on; });
  session({.name = "kill-timeout", .value = "DUR",
           .help = "with --kill: how long it waits (default 10s)"},
          [](RecordArgs& a, const Given& g) {
            a.kill_timeout_ns = DurationArgument("kill-timeout", g.value);
          });
  session({.name = "background-child", .hidden = true},
          [](RecordArgs& a, const Given& g) { a.config.session = g.on; });
}

Command<RecordArgs> BuildRecordCommand() {
  Command<RecordArgs> c{{"record", "[options]", kAbout, kFooter}, RecordingOptions()};
  AddDriverOptions(c.options);
  AddSessionOptions(c.options);
  return c;
}

}  // namespace

const Command<RecordArgs>& RecordCommand() {
  static const Command<RecordArgs> command = BuildRecordCommand();
  return command;
}

std::vector<Opt> RecordOptions(std::initializer_list<std::string_view> names) {
  std::vector<Opt> out;
  for (std::string_view name : names)
    for (const Opt& o : RecordCommand().options)
      if (o.name == name) out.push_back(o);
  return out;
}

}  // namespace pm
