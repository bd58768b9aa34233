// argv for the parsers under test, built from a list of words.
#pragma once

#include <string>
#include <vector>

namespace pm::test {

class Argv {
 public:
  Argv(std::initializer_list<std::string> words) : words_(words) { Build(); }
  explicit Argv(std::vector<std::string> words) : words_(std::move(words)) { Build(); }
  int argc() const { return static_cast<int>(words_.size()); }
  char** argv() { return pointers_.data(); }

 private:
  void Build() {
    for (std::string& w : words_) pointers_.push_back(w.data());
    pointers_.push_back(nullptr);
  }
  std::vector<std::string> words_;
  std::vector<char*> pointers_;
};

}  // namespace pm::test
