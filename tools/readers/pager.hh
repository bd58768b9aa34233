// `summary`'s pager: text through `sh -c CMD` when standard output is a
// terminal, straight to standard output otherwise.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace pm {

// The pager command: `option` (-p CMD) if given, else $PAGER if set, else
// "less". Empty means none.
std::string PagerCommand(const std::string* option);

// Writes `text` to standard output: through `command` when it is non-empty
// and stdout is a terminal. A pager that fails — cannot start (the shell
// reports 126 or 127), exits non-zero, or is killed by a signal other than
// the user's SIGINT — may have shown nothing: the text is then printed
// directly and the return value says why, for a one-line note. A pager
// that quits early with status 0 (the user read enough) is not a failure.
// Throws std::system_error on a failed direct write.
std::optional<std::string> ShowPaged(std::string_view text, const std::string& command);

}  // namespace pm
