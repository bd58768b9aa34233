#!/bin/sh
# A real PostgreSQL (Debian's postgresql-15, initdb and pg_ctl in a
# temporary directory, as the unprivileged user nobody when run as root)
# and a libpq client (pg_queries.c) that brackets 200 queries with the
# embedding library's marks, recording its backend's PID. Each query's CPU
# from the mark reply and from the file must lie within max(2 %, 50 µs) of
# the backend's own /proc/PID/schedstat delta read around the query.
# Usage: run_pg.sh BUILD_DIR PERFMONGER CLIENT_C [EXTRA_CFLAGS]   ($CC: cc;
# EXTRA_CFLAGS: a sanitized build's, as run.sh takes them)
# Exit 77 (skipped) without PostgreSQL 15 or libpq.
set -eu
build=$1 pm=$2 client_c=$3 extra=${4:-} cc=${CC:-cc}
pgbin=/usr/lib/postgresql/15/bin
[ -x "$pgbin/initdb" ] && pkg-config --exists libpq || { echo "skipped: no postgresql-15 or libpq-dev"; exit 77; }
tmp=$(mktemp -d)
chmod 755 "$tmp"
as_pg() { "$@"; }
if [ "$(id -u)" = 0 ]; then
  chown nobody "$tmp"
  as_pg() { runuser -u nobody -- "$@"; }
fi
cleanup() {
  as_pg "$pgbin/pg_ctl" -D "$tmp/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
as_pg "$pgbin/initdb" -D "$tmp/data" -A trust -U pm >/dev/null
as_pg "$pgbin/pg_ctl" -D "$tmp/data" -w -t 60 -l "$tmp/pg.log" \
  -o "-k $tmp -c listen_addresses= -c max_parallel_workers_per_gather=0" start >/dev/null

meson install -C "$build" --no-rebuild --destdir "$tmp/root" --quiet >/dev/null
pc=$(find "$tmp/root" -name perfmonger-embed.pc | head -1)
prefix=$(sed -n 's/^prefix=//p' "$pc")
pkg() { PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --define-variable=prefix="$tmp/root$prefix" "$@" perfmonger-embed; }
$cc -std=c99 -Wall -Wextra -Werror $extra -o "$tmp/client" "$client_c" $(pkg --cflags --libs) \
  $(pkg-config --cflags --libs libpq)
LD_LIBRARY_PATH=$(pkg --variable=libdir) \
  "$tmp/client" "host=$tmp dbname=postgres user=pm" "$pm" "$tmp/q.pgr" > "$tmp/out"
read -r rec backend < "$tmp/out"
"$pm" summary --phases --json "$rec" > "$tmp/phases.json"
/usr/bin/python3 - "$tmp/out" "$tmp/phases.json" "$backend" <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()[1:]
phases = {p['phase']: p for p in json.load(open(sys.argv[2]))}
backend = sys.argv[3]
assert len(lines) == 200, len(lines)
worst = []
for i, line in enumerate(lines):
    own, reply = (int(x) for x in line.split())
    recorded = phases['q%d' % i]['procs'][backend]['cpu_sec']
    bound = max(0.02 * own, 50_000)
    assert own >= 400_000, ('query %d used only %d ns' % (i, own))
    assert abs(reply - own) <= bound, ('reply', i, own, reply)
    assert abs(recorded * 1e9 - own) <= bound + 1000, ('file', i, own, recorded)
    worst.append(abs(reply - own))
worst.sort()
print('pg: 200 queries, |reply - schedstat| median %d ns, max %d ns' % (worst[100], worst[-1]))
EOF
