#!/bin/sh
# Every man page renders without a troff warning, and every option a
# command's --help prints is documented in that command's page.
# Usage: man_pages.sh PERFMONGER MAN_DIR
pm=${1:?usage: man_pages.sh PERFMONGER MAN_DIR}
man=${2:?usage: man_pages.sh PERFMONGER MAN_DIR}
if ! command -v groff >/dev/null 2>&1; then
  echo "groff not found: apt-get install groff-base" >&2
  exit 1
fi
failed=0
for page in "$man"/*.[0-9]; do
  warnings=$(groff -t -man -ww -z "$page" 2>&1)
  if [ -n "$warnings" ]; then
    echo "$page renders with warnings:"; echo "$warnings"; failed=1
  fi
done

# The commands `perfmonger --help` lists (first word of each indented line
# under "Commands:"), each with its page perfmonger-COMMAND.1.
commands=$("$pm" --help | awk '/^Commands:/ { on = 1; next }
  on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
[ -n "$commands" ] || { echo "perfmonger --help lists no command"; exit 1; }
for cmd in $commands; do
  page="$man/perfmonger-$cmd.1"
  if [ ! -f "$page" ]; then
    echo "$cmd: no man page $page"; failed=1; continue
  fi
  # The page's text with troff's \- turned into plain hyphens.
  text=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$page")
  for opt in $("$pm" "$cmd" --help | grep -oE '(^|[ ,])--?[a-zA-Z][-a-zA-Z0-9]*' |
               sed 's/^[ ,]*//' | sort -u); do
    if ! printf '%s\n' "$text" | grep -qE -- "(^|[^-a-zA-Z0-9])$opt([^-a-zA-Z0-9]|\$)"; then
      echo "$cmd: $opt is in --help but not in $page"; failed=1
    fi
  done
done
[ $failed -eq 0 ] && echo "man pages: all render cleanly and document every --help option"
exit $failed
