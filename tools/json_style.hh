// `play --pretty` and `--color`: a compact JSON line laid out again.
//   pretty: as Go's json.MarshalIndent(v, "", "  ") — one member or element
//           per line, `"key": value`, empty {} and [] kept on one line.
//   color:  ANSI SGR escapes, as go-prettyjson paints: keys bold blue,
//           strings bold green, numbers bold cyan, true/false bold yellow,
//           null bold black; each token followed by a reset.
// The input must be valid compact JSON (AppendPlayJson's); no newline is
// appended.
#pragma once

#include <string>
#include <string_view>

namespace pm {

void AppendStyledJson(std::string& out, std::string_view compact, bool pretty,
                      bool color);

}  // namespace pm
