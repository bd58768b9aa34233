// What `plot` does to gnuplot's SVG files: gnuplot's svg terminal titles
// every document "Gnuplot", which a browser tab or an image viewer then
// shows; the chart's own title goes there instead.
#pragma once

#include <string>

namespace pm {

// `text` for XML character data, whatever its bytes: shown as on a chart
// (gp::Shown(): every character XML 1.0 forbids, a control byte, a byte
// that is not UTF-8, U+FFFE and U+FFFF, made '?'), then &, < and >
// escaped. A recording's strings (a --meta value with a BEL) reach an SVG's
// <title> and the report's page only through here.
std::string XmlEscaped(const std::string& text);

// `svg` (gnuplot's) with its document <title> made `title` (XmlEscaped()).
std::string TitledSvg(std::string svg, const std::string& title);

}  // namespace pm
