// The perfmonger executable: dispatch to a subcommand.
#include <signal.h>

#include <cstdio>
#include <cstring>
#include <string_view>

#include "tools/readers/cat_cli.hh"
#include "tools/command_catalog.hh"
#include "tools/completion/completion_cli.hh"
#include "tools/diff/diff_cli.hh"
#include "tools/fingerprint/fingerprint_cli.hh"
#include "tools/live/live_cli.hh"
#include "tools/readers/play_cli.hh"
#include "tools/plot/plot_cli.hh"
#include "tools/record/record_cli.hh"
#include "tools/record/stat_cli.hh"
#include "tools/readers/summary_cli.hh"
#include "tools/version.hh"

int main(int argc, char** argv) {
  // A reader that goes away (a closed ready or ack pipe) is an error to
  // handle where it happens, never a reason to die.
  signal(SIGPIPE, SIG_IGN);

  std::string_view command = argc > 1 ? argv[1] : "--help";
  if (command == "-h" || command == "--help" || command == "help") {
    std::fputs(pm::ToplevelUsage().c_str(), stdout);
    return 0;
  }
  if (command == "-v" || command == "--version") {
    // PerfMonger's line, then the build, which a bug report needs.
    std::string_view build = PERFMONGER_GIT_DESCRIBE;
    if (build.empty()) std::printf("PerfMonger version %s\n", PERFMONGER_VERSION);
    else std::printf("PerfMonger version %s (git %s)\n", PERFMONGER_VERSION, build.data());
    return 0;
  }
  if (command == "record") return pm::RecordMain(argc - 1, argv + 1);
  if (command == "play") return pm::PlayMain(argc - 1, argv + 1);
  if (command == "plot") return pm::PlotMain(argc - 1, argv + 1);
  if (command == "stat") return pm::StatMain(argc - 1, argv + 1);
  if (command == "live") return pm::LiveMain(argc - 1, argv + 1);
  if (command == "init-shell") return pm::InitShellMain(argc - 1, argv + 1);
  if (command == "completion") return pm::CompletionMain(argc - 1, argv + 1);
  if (command == "cat") return pm::CatMain(argc - 1, argv + 1);
  if (command == "diff") return pm::DiffMain(argc - 1, argv + 1);
  if (command == "summary" || command == "summarize")
    return pm::SummaryMain(argc - 1, argv + 1);
  if (command == "fingerprint" || command == "fp" || command == "bukko")
    return pm::FingerprintMain(argc - 1, argv + 1);
  std::fprintf(stderr,
               "perfmonger: error: unknown command '%s' (see perfmonger --help)\n",
               argv[1]);
  return 1;
}
