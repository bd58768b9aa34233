// What the three script generators (tools/completion/completion_{bash,zsh,fish}.cc)
// share: the words of the command catalog as the shells spell them.
// Internal to the completion files; the rest use completion_script.hh.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tools/command_catalog.hh"

namespace pm::completion {

// The options --help lists (hidden ones never complete).
std::vector<const OptionInfo*> Listed(const CommandEntry& c);

// "-l --logfile": every word that names `o`.
std::string Words(const OptionInfo& o, std::string_view separator = " ");

// The words of `c`'s options that take a value, space-separated: what a
// scan for stat's CMD skips together with the word after it.
std::string ValueOptionWords(const CommandEntry& c);

// `record|rec` for a case pattern: the name and its aliases.
std::string Names(const CommandEntry& c, std::string_view separator);
// Every command and alias, then -h --help -v --version.
std::string AllCommandNames();

std::string Replaced(std::string text, std::string_view from, std::string_view to);
// Inside '...' for sh-like shells.
std::string Quoted(std::string_view text);

std::string BashScript();
std::string ZshScript();
std::string FishScript();

}  // namespace pm::completion
