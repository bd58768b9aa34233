#!/bin/sh
# A real PostgreSQL (Debian's postgresql-15, initdb and pg_ctl in a
# temporary directory, as the unprivileged user nobody when run as root)
# and a libpq client recording its backend's PID with the embedding
# library: pg_queries.c brackets 200 queries with marks, pg_parallel.c a
# parallel query whose workers it names. check_CLIENT.py compares what the
# client read of the kernel with the mark replies and the file.
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
/usr/bin/python3 "$(dirname "$0")/check_$(basename "$client_c" .c).py" \
  "$tmp/out" "$tmp/phases.json" "$backend"
