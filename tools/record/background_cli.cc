#include "tools/record/background_cli.hh"

#include <cstdio>
#include <string>

#include "common/io.hh"
#include "daemon/file_sink.hh"
#include "daemon/launcher.hh"
#include "daemon/session_files.hh"
#include "proto/json.hh"

namespace pm {
namespace {

const char* ReadinessName(Readiness r) {
  switch (r) {
    case Readiness::kReady: return "ready";
    case Readiness::kError: return "error";
    case Readiness::kTimeout: return "timeout";
  }
  return "error";
}

int ExitStatus(Readiness r) {
  switch (r) {
    case Readiness::kReady: return 0;
    case Readiness::kError: return 1;
    case Readiness::kTimeout: return 2;
  }
  return 1;
}

void PrintChildReady(const LaunchOutcome& out, const std::string& output) {
  std::string line = "{\"event\":\"child_ready\",\"pid\":";
  AppendInt(line, out.pid);
  line.append(",\"ready\":");
  AppendJsonString(line, ReadinessName(out.readiness));
  char t[32];
  std::snprintf(t, sizeof t, ",\"t_rel\":%.6f", static_cast<double>(out.elapsed_ns) / 1e9);
  line.append(t);
  line.append(",\"output\":");
  AppendJsonString(line, output);
  if (out.readiness == Readiness::kError) {
    line.append(",\"reason\":");
    AppendJsonString(line, out.reason);
    if (out.exit_code) line.append(",\"exit_code\":" + std::to_string(*out.exit_code));
    if (out.signal) line.append(",\"signal\":" + std::to_string(*out.signal));
  }
  line.append("}\n");
  std::fputs(line.c_str(), stdout);
  std::fflush(stdout);
}

}  // namespace

int RecordInBackground(const RecordArgs& args, int argc, char** argv) {
  RequireOutputPath(args.config.output);
  std::string output = AbsolutePath(args.config.output);
  if (std::optional<SessionState> live = FindSession(DefaultSessionPaths(), false).live) {
    std::fprintf(stderr,
                 "[ERROR] another perfmonger is already running in background "
                 "mode (PID: %d)\n",
                 static_cast<int>(live->pid));
    return 1;
  }
  LaunchOptions options;
  options.child_args = ChildArgs(args, output);
  options.user_args.assign(argv, argv + argc);
  options.start_delay_ns = args.config.start_delay_ns;
  options.ready_timeout_ns = args.ready_timeout_ns;
  options.log_path = args.log_path;
  LaunchOutcome out = LaunchBackground(options);
  PrintChildReady(out, output);
  if (out.readiness == Readiness::kError)
    std::fprintf(stderr, "perfmonger record: error: %s\n", out.reason.c_str());
  return ExitStatus(out.readiness);
}

}  // namespace pm
