#!/bin/sh
# The embedding library as a user gets it: `meson install` into a scratch
# DESTDIR, two C programs compiled with `pkg-config --cflags --libs
# perfmonger-embed` against what was installed, run through every scenario
# of embed_client.c (the contract) and embed_hold.c (real clients' ways),
# and their recordings checked with `perfmonger play` and `summary --json`.
# Usage: run.sh BUILD_DIR PERFMONGER CLIENT_C HOLD_C [EXTRA_CFLAGS]   ($CC: cc)
set -eu
build=$1 pm=$2 client_c=$3 hold_c=$4 extra=${5:-} cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --no-rebuild --destdir "$tmp/root" --quiet >/dev/null
pc=$(find "$tmp/root" -name perfmonger-embed.pc | head -1)
[ -n "$pc" ] || { echo "perfmonger-embed.pc was not installed"; exit 1; }
prefix=$(sed -n 's/^prefix=//p' "$pc")
pkg() { PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --define-variable=prefix="$tmp/root$prefix" "$@" perfmonger-embed; }
$cc -std=c99 -Wall -Wextra -Werror $extra -o "$tmp/client" "$client_c" $(pkg --cflags --libs) -lpthread
$cc -std=c99 -Wall -Wextra -Werror $extra -o "$tmp/hold" "$hold_c" $(pkg --cflags --libs)
libdir=$(pkg --variable=libdir)
$cc -std=c99 -Wall -Wextra -Werror $extra -o "$tmp/client-static" "$client_c" $(pkg --cflags) \
  "$libdir/libperfmonger-embed.a" $(pkg --static --libs-only-l | sed 's/-lperfmonger-embed//') -lpthread
[ -f "$tmp/root$prefix/share/man/man3/perfmonger-embed.3" ] || { echo "perfmonger-embed(3) not installed"; exit 1; }

failed=0
run() {
  scenario=$1 client=$2
  mkdir -p "$tmp/$scenario"
  if LD_LIBRARY_PATH=$libdir PATH="$(dirname "$pm"):$PATH" \
       "$client" "$scenario" "$pm" "$tmp/$scenario" > "$tmp/$scenario.out"; then
    echo "ok   $scenario ($(basename "$client"))"
  else
    echo "FAIL $scenario ($(basename "$client"))"; failed=1
  fi
}
for s in bracket manyfds pathlookup notfound unwritable killed threads; do run $s "$tmp/client"; done
run bracket "$tmp/client-static"
for s in late_reply worker stopped sigchld heap messages caller options status phasecost \
         collectors; do
  run $s "$tmp/hold"
done
# A client built against 1.0's header (its smaller options struct) and
# linked with this library.
$cc -std=c99 -Wall -Wextra -Werror $extra -I"$(dirname "$client_c")/frozen/1.0" \
  -o "$tmp/frozen" "$(dirname "$client_c")/embed_frozen.c" $(pkg --libs)
mkdir -p "$tmp/frozen.d"
if LD_LIBRARY_PATH=$libdir "$tmp/frozen" "$pm" "$tmp/frozen.d" > "$tmp/frozen.out"; then
  echo "ok   frozen 1.0 header"
else
  echo "FAIL frozen 1.0 header"; failed=1
fi
json() { /usr/bin/python3 -c "import json, sys; d = json.load(sys.stdin); $1"; }

# What the bracket scenario recorded reads back with its metadata and mark.
rec=$(head -1 "$tmp/bracket.out")
summary=$("$pm" summary --json "$rec")
echo "$summary" | grep -q '"query_id":"q42"' || { echo "FAIL meta query_id missing: $summary"; failed=1; }
echo "$summary" | grep -q '"sql":"SELECT \* FROM t WHERE id=42"' || { echo "FAIL meta sql not decoded"; failed=1; }
"$pm" play --events "$rec" 2>/dev/null | grep -q '"phase2"' || { echo "FAIL mark phase2 not in play --events"; failed=1; }
# Sixteen recordings from four threads, each closed cleanly.
n=$(ls "$tmp/threads"/t*.pgr.zst 2>/dev/null | wc -l)
[ "$n" -eq 16 ] || { echo "FAIL threads: $n recordings, not 16"; failed=1; }
for f in "$tmp/threads"/t*.pgr.zst; do
  zstdcat "$f" | tail -1 | grep -q '"event":"end"' || { echo "FAIL $f has no end trailer"; failed=1; }
done
# The late replies were dropped, not lost: every mark is there, in order.
marks=$("$pm" play --events "$(cat "$tmp/late_reply.out")" 2>/dev/null |
  sed -n 's/.*"label":"\([^"]*\)".*/\1/p' | tr -d '\n')
[ "$marks" = ABC ] || { echo "FAIL late_reply: marks '$marks', not ABC"; failed=1; }
# The caller's own row beside the machine's, in the phase of its work;
# every collector the library can turn on.
read -r rec caller other disk group pressure < "$tmp/caller.out"
"$pm" summary --phases --json "$rec" > "$tmp/caller.json"
json "
q = next(p for p in d if p['phase'] == 'query')
me = q['procs']['$caller']
assert me['cpu_sec'] >= 0.2, ('caller cpu', me)
assert me['wchar'] >= 2 << 20, ('caller wchar', me)
assert 'system' in q['procs'] and '$other' in q['procs'], q['procs'].keys()
for key in ['cpu', 'intr', 'disk', 'net', 'mem']:
    assert key in q, (key, q.keys())
assert '$disk' == '-' or q['disk']['devices'] == ['$disk'], q['disk']['devices']
assert '$group' == '-' or 'cgroups' in q, q.keys()
assert '$pressure' == '0' or 'pressure' in q, q.keys()
" < "$tmp/caller.json" || { echo "FAIL caller: $(head -c 300 "$tmp/caller.json")"; failed=1; }
# Started paused: the time before the first resume is paused time, and the
# first event after the start line (the clock's state) is the pause.
rec=$(cat "$tmp/status.out")
"$pm" summary --json "$rec" | json "assert d['paused_time'] >= 0.1, d.get('paused_time')" ||
  { echo "FAIL status: paused_time"; failed=1; }
first=$("$pm" play --events "$rec" 2>/dev/null | grep -v '"event":"start"' | head -1)
case $first in *'"event":"pause"'*) ;; *) echo "FAIL status: first event $first"; failed=1;; esac
# Each phase's CPU of the caller (its process CPU clock, read at each
# mark): no less than the caller measured between its mark calls, no more
# than around them, to the µs. (What the library's calls add, a mark's
# CPU in the caller, is perfmonger-bench-embed's to measure: a timing.)
read -r rec caller < "$tmp/phasecost.out"
"$pm" summary --phases --json "$rec" > "$tmp/phasecost.json"
json "
lines = open('$tmp/phasecost.out').read().splitlines()
full = [tuple(map(int, l.split())) for l in lines[1:-1]]
rows = [r[:2] for r in full]
got = {p['phase']: p['procs']['$caller']['cpu_sec'] for p in d}
assert len(rows) == 100
for i, (inside, around) in enumerate(rows):
    assert inside / 1e9 - 1e-6 <= got['p%d' % i] <= around / 1e9 + 1e-6, (i, inside, got['p%d' % i], around)
# The mark's reply carries the phase's cost as the file holds it (to the
# µs summary prints; bytes exactly); the stop's, the last phase's.
for i, (_, _, cpu, wait, rb, wb) in enumerate(full):
    me = next(p for p in d if p['phase'] == 'p%d' % i)['procs']['$caller']
    assert abs(cpu / 1e9 - me['cpu_sec']) <= 0.6e-6, ('reply cpu', i, cpu, me['cpu_sec'])
    assert abs(wait / 1e9 - me['run_wait_sec']) <= 0.6e-6, ('reply wait', i, wait, me['run_wait_sec'])
    assert (rb, wb) == (me['read_bytes'], me['write_bytes']), ('reply bytes', i, rb, wb, me)
last = d[-1]['procs']['$caller']
stop_cpu, stop_wait = map(int, lines[-1].split())
assert d[-1]['phase'] == 'p100' and abs(stop_cpu / 1e9 - last['cpu_sec']) <= 0.6e-6, ('stop', stop_cpu, last)
" < "$tmp/phasecost.json" || { echo "FAIL phasecost: $(head -c 300 "$tmp/phasecost.json")"; failed=1; }
# Collectors by name: load, sockstat and vmstat on, net off.
"$pm" cat "$(cat "$tmp/collectors.out")" | head -1 | json "
c = d['collectors']
assert all(k in c for k in ('load', 'sockstat', 'vmstat', 'cpu')) and 'net' not in c, c.keys()
" || { echo "FAIL collectors: the recording's members"; failed=1; }
# The 1.0 client's options read as it meant them: intr on, net off, the caller.
read -r rec caller < "$tmp/frozen.out"
"$pm" cat "$rec" | head -1 | json "
c = d['collectors']
assert 'intr' in c and 'net' not in c and c['procs']['rows'] == ['$caller'], c.keys()
" || { echo "FAIL frozen: the 1.0 client's options"; failed=1; }
[ $failed -eq 0 ] && echo "embed: every scenario passed"
exit $failed
