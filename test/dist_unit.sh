#!/bin/sh
# dist/perfmonger.service (Type=notify: READY=1 is tested in
# test/process/test_ready.cc) as systemd reads it (`systemd-analyze verify`,
# no running systemd needed) with its binary pointed at the build's, then
# its ExecStart= line run as the unit would run it, into a scratch
# directory instead of /var/log/perfmonger/, with PERFMONGER_OPTS from an
# /etc/default-style file adding a short interval and a timeout (later
# options win).
# Usage: dist_unit.sh PERFMONGER UNIT
pm=${1:?usage: dist_unit.sh PERFMONGER UNIT}
unit=${2:?usage: dist_unit.sh PERFMONGER UNIT}
if ! command -v systemd-analyze >/dev/null 2>&1; then
  echo "systemd-analyze not found: apt-get install systemd" >&2
  exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
installed=$(sed -n 's|^ExecStart=\([^ ]*\)/perfmonger .*|\1|p' "$unit")
[ -n "$installed" ] || { echo "no ExecStart=.../perfmonger line in $unit"; exit 1; }
sed "s|$installed/perfmonger|$pm|" "$unit" > "$tmp/perfmonger.service"
# A value systemd cannot parse is only a warning to it: any output fails.
said=$(systemd-analyze verify --man=no "$tmp/perfmonger.service" 2>&1)
status=$?
if [ $status -ne 0 ] || [ -n "$said" ]; then
  echo "systemd-analyze verify: exit $status"; echo "$said"; exit 1
fi
for key in ProtectSystem=strict ReadWritePaths=/var/log/perfmonger NoNewPrivileges=yes \
           PrivateTmp=yes LogsDirectory=perfmonger StateDirectory=perfmonger \
           EnvironmentFile=-/etc/default/perfmonger Type=notify NotifyAccess=main; do
  grep -qx "$key" "$unit" || { echo "$unit lacks $key"; exit 1; }
done
if grep -Eq '^(ProtectProc|ProcSubset)=' "$unit"; then
  echo "$unit hides part of /proc from the recorder"; exit 1
fi

# The ExecStart= line, as systemd would split it, into $tmp/log/.
line=$(sed -n 's/^ExecStart=//p' "$tmp/perfmonger.service" | sed "s|/var/log/perfmonger/|$tmp/log/|")
printf 'PERFMONGER_OPTS="-i 100ms -t 300ms"\n' > "$tmp/default"
. "$tmp/default"
line=$(printf '%s' "$line" | sed "s|\\\$PERFMONGER_OPTS|$PERFMONGER_OPTS|")
# shellcheck disable=SC2086 # split as systemd splits an unquoted line
if ! $line 2> "$tmp/err"; then
  echo "ExecStart failed: $line"; cat "$tmp/err"; exit 1
fi
set -- "$tmp"/log/perfmonger-????????.pgr.zst
[ $# -eq 1 ] && [ -f "$1" ] || { echo "expected one daily file in $tmp/log:"; ls -l "$tmp/log"; exit 1; }
lines=$("$pm" play "$1" | wc -l)
[ "$lines" -ge 2 ] || { echo "$1: $lines play lines, expected at least 2"; exit 1; }
echo "ok: $(basename "$1"), $lines intervals"
