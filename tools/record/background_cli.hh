// `record --background` as the user sees it: refuse while a session runs,
// launch (daemon/launcher.hh), print the one child_ready line, choose the
// exit status.
#pragma once

#include "tools/record/record_args.hh"

namespace pm {

// Prints on stdout
//   {"event":"child_ready","pid":N,"ready":"ready"|"error"|"timeout",
//    "t_rel":S.ssssss,"output":"/abs/path"}
// with, on error, "reason" and "exit_code" or "signal" (and the reason on
// stderr). Exit status: 0 ready, 1 error (or a session already running),
// 2 timeout (the child is left running). `argc`/`argv` are the user's
// command line from "record" on, shown by --status.
int RecordInBackground(const RecordArgs& args, int argc, char** argv);

}  // namespace pm
