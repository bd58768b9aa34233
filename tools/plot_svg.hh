// What `plot` does to gnuplot's SVG files: gnuplot's svg terminal titles
// every document "Gnuplot", which a browser tab or an image viewer then
// shows; the chart's own title goes there instead.
#pragma once

#include <string>

namespace pm {

// `text` for XML character data: &, < and > escaped; `text` holds no
// control byte and only UTF-8 (gp::Shown()).
std::string XmlEscaped(const std::string& text);

// `svg` (gnuplot's) with its document <title> made `title` (gp::Shown()).
std::string TitledSvg(std::string svg, const std::string& title);

}  // namespace pm
