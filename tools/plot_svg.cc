#include "tools/plot_svg.hh"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include <string_view>

#include "common/error.hh"
#include "common/io.hh"
#include "common/output_file.hh"
#include "tools/plot_scripts.hh"

namespace pm {

std::string XmlEscaped(const std::string& text) {
  std::string out;
  for (char c : gp::Shown(text)) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string TitledSvg(std::string svg, const std::string& title) {
  constexpr std::string_view kOpen = "<title>", kClose = "</title>";
  size_t open = svg.find(kOpen);
  size_t close = open == std::string::npos ? open : svg.find(kClose, open);
  if (close == std::string::npos) return svg;
  size_t from = open + kOpen.size();
  svg.replace(from, close - from, XmlEscaped(title));
  return svg;
}

namespace {

std::string ReadWhole(const std::string& path) {
  UniqueFd fd = OpenAt(AT_FDCWD, path, O_RDONLY);
  std::string out;
  char buf[65536];
  for (;;) {
    ssize_t got = read(fd.Get(), buf, sizeof buf);
    if (got == 0) return out;
    if (got > 0) out.append(buf, static_cast<size_t>(got));
    else if (errno != EINTR) throw SystemError("cannot read " + path);
  }
}

}  // namespace

std::string RetitleSvgFile(const std::string& path, const std::string& title) {
  std::string svg = TitledSvg(ReadWhole(path), title);
  UniqueFd fd = OpenOutputFile(path, O_WRONLY | O_TRUNC, 0644);
  WriteAll(fd.Get(), svg);
  return svg;
}

}  // namespace pm
