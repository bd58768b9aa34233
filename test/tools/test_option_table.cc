// The option tables as data: what a completion generator or a man-page
// check walks, and the --help text derived from them.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "common/error.hh"
#include "test/tools/args_util.hh"
#include "tools/command_catalog.hh"
#include "tools/readers/reader_args.hh"
#include "tools/record/record_args.hh"

namespace pm::test {
namespace {

// Options listed in a --help text: the "--name" opening each entry.
std::set<std::string> ListedOptions(const std::string& usage) {
  std::set<std::string> listed;
  size_t at = 0;
  while (at < usage.size()) {
    size_t end = usage.find('\n', at);
    std::string line = usage.substr(at, end - at);
    at = end == std::string::npos ? usage.size() : end + 1;
    size_t dash = line.find("--");
    if (!line.starts_with("  ") || dash == std::string::npos || dash > 6) continue;
    if (line.find_first_not_of(" -,abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") < dash)
      continue;
    size_t name_end = line.find_first_of(" =[", dash);  // --color[=WHEN]
    listed.insert(line.substr(dash, name_end - dash));
  }
  return listed;
}

TEST_CASE("catalog: every command's options, each listed in its --help with help text") {
  std::set<std::string> commands;
  for (const CommandEntry& command : CommandCatalog()) {
    CAPTURE(command.name);
    commands.insert(std::string(command.name));
    std::set<std::string> listed = ListedOptions(command.usage);
    std::set<std::string> names;
    for (const OptionInfo* o : command.options) {
      CAPTURE(o->name);
      CHECK(names.insert(std::string(o->name)).second);  // no name twice
      if (o->hidden) {
        CHECK(listed.count("--" + std::string(o->name)) == 0);
      } else {
        CHECK(listed.count("--" + std::string(o->name)) == 1);
        CHECK_FALSE(o->help.empty());
      }
    }
    CHECK(listed.size() == names.size() - std::count_if(command.options.begin(),
                                                        command.options.end(),
                                                        [](auto* o) { return o->hidden; }));
  }
  CHECK(commands == std::set<std::string>{"record", "play", "summary", "fingerprint", "plot",
                                          "stat", "live", "init-shell", "completion", "cat", "diff"});
}

TEST_CASE("catalog: every boolean flag of every command takes =true and =false") {
  for (const CommandEntry& command : CommandCatalog()) {
    for (const OptionInfo* o : command.options) {
      if (!o->is_flag()) continue;
      for (std::string value : {"true", "false"}) {
        std::string word = "--" + std::string(o->name) + "=" + value;
        CAPTURE(word);
        // The operand is a FILE or CMD; where none is taken, its refusal
        // comes after every option was read.
        Argv argv({std::string(command.name), word, "file.pgr"});
        std::string error;
        try {
          command.parse(argv.argc(), argv.argv());
        } catch (const UsageError& e) {
          error = e.what();
        }
        // It may be refused for what it means (e.g. --background-child
        // alone), never as an unknown option or a bad boolean.
        CHECK(error.find("unknown option") == std::string::npos);
        CHECK(error.find("true or false") == std::string::npos);
      }
    }
  }
}

// `\-\-name` in troff, not as the start of a longer name.
bool ManPageNames(const std::string& page, std::string_view name) {
  std::string escaped = "\\-\\-";
  for (char c : name) escaped += c == '-' ? std::string("\\-") : std::string(1, c);
  for (size_t at = page.find(escaped); at != std::string::npos;
       at = page.find(escaped, at + 1)) {
    std::string_view rest = std::string_view(page).substr(at + escaped.size());
    bool longer = !rest.empty() && (std::isalnum(static_cast<unsigned char>(rest[0])) ||
                                    rest.starts_with("\\-"));
    if (!longer) return true;
  }
  return false;
}

TEST_CASE("catalog: each man page documents each option of its command") {
  const char* dir = std::getenv("PM_MAN_DIR");
  REQUIRE(dir != nullptr);
  for (const CommandEntry& command : CommandCatalog()) {
    std::ifstream in(std::string(dir) + "/perfmonger-" + std::string(command.name) + ".1");
    REQUIRE(in);
    std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const OptionInfo* o : command.options) {
      if (o->hidden) continue;
      CAPTURE(command.name);
      CAPTURE(o->name);
      CHECK(ManPageNames(page, o->name));
    }
  }
  CHECK_FALSE(ManPageNames("\\-\\-logfile", "log"));  // the check itself can fail
}

TEST_CASE("readers: =false turns a flag back off, short flags stay grouped") {
  Argv play({"play", "-cp", "--color=false", "f.pgr"});
  PlayArgs p = ParsePlayArgs(play.argc(), play.argv());
  CHECK(p.color == ColorWhen::kNever);
  CHECK(p.pretty);
  CHECK(p.file == "f.pgr");
  Argv summary({"summary", "--json=1", "--all", "--all=f", "-"});
  SummaryArgs s = ParseSummaryArgs(summary.argc(), summary.argv());
  CHECK(s.json);
  CHECK_FALSE(s.all);
}

}  // namespace
}  // namespace pm::test
