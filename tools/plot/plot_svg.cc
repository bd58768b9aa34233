#include "tools/plot/plot_svg.hh"

#include <string_view>

#include "tools/plot/plot_scripts.hh"

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

}  // namespace pm
