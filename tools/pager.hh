// `summary`'s pager: text through `sh -c CMD` when standard output is a
// terminal, straight to standard output otherwise.
#pragma once

#include <string>
#include <string_view>

namespace pm {

// The pager command: `option` (-p CMD) if given, else $PAGER if set, else
// "less". Empty means none.
std::string PagerCommand(const std::string* option);

// Writes `text` to standard output: through `command` when it is non-empty
// and stdout is a terminal. A pager that cannot start (the shell reports
// 126 or 127) is passed over: the text is printed directly. A pager that
// quits early is not an error. Throws std::system_error on a failed
// direct write.
void ShowPaged(std::string_view text, const std::string& command);

}  // namespace pm
