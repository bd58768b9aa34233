#!/bin/sh
# The README is a first page: at most 250 lines, opening with the two
# set-up commands (the main job and the whole suite), and every file it
# links to is in the repository. Fails naming what is wrong.
root=${1:?usage: readme.sh SOURCE_ROOT}
cd "$root" || exit 1
status=0
lines=$(wc -l < README.md)
if [ "$lines" -gt 250 ]; then
  echo "README.md has $lines lines: at most 250 (the rest belongs in docs/ or a man page)"
  status=1
fi
# The first code block: exactly scripts/demo, then scripts/test.
first=$(awk '/^```/ { if (open) exit; open = 1; next } open { print $1 }' README.md)
if [ "$first" != "$(printf 'scripts/demo\nscripts/test')" ]; then
  echo "README.md's first code block must be the two set-up commands, scripts/demo and scripts/test; it is:"
  echo "$first"
  status=1
fi
# Relative links: [text](path) or [text](path#anchor).
grep -o '](\([^)#:]*\)[)#]' README.md | sed 's/^](//; s/[)#]$//' | sort -u | while read -r path; do
  [ -e "$path" ] || { echo "README.md links to $path, which is not in the repository"; exit 1; }
done || status=1
exit $status
