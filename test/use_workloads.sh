#!/bin/sh
# summary --use on workloads recorded at 10 ms by `stat` (the recording
# brackets the workload: no waiting, no sleep in the test itself):
#   a fake /proc tree whose counters never move -> no resource saturated
#     (this machine's own /proc is never idle: other builds run on it);
#   stress-ng --cpu on every core            -> CPU is the binding resource;
#   four O_DIRECT write bursts (dd) with idle gaps between them -> the disk
#     holding the test's directory shows saturated bursts.
# Usage: use_workloads.sh PERFMONGER SOURCE_ROOT
pm=${1:?usage: use_workloads.sh PERFMONGER SOURCE_ROOT}
root=${2:?usage: use_workloads.sh PERFMONGER SOURCE_ROOT}
py=/usr/bin/python3
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }

# 1. Nothing moves: nothing saturates.
"$pm" stat -i 10ms --root "$root/test/data/proc-small" -l "$dir/idle.pgr" -- true >/dev/null 2>&1 ||
  fail "stat on the fake /proc tree"
verdict=$("$pm" summary --use --no-pager "$dir/idle.pgr" 2>/dev/null | grep '^USE verdict:')
[ "$verdict" = "USE verdict: no resource saturated" ] || fail "idle: '$verdict'"

# 2. Every core busy: CPU binds.
if ! command -v stress-ng >/dev/null 2>&1; then
  echo "SKIP: stress-ng not installed (apt-get install stress-ng)"; exit 77
fi
"$pm" stat -i 10ms --record-load -l "$dir/cpu.pgr" -- \
  stress-ng --cpu "$(nproc)" -t 2 >/dev/null 2>&1 || fail "stat stress-ng"
"$pm" summary --use --json "$dir/cpu.pgr" 2>/dev/null | "$py" -c '
import json, sys
use = json.load(sys.stdin)["use"]
assert use["binding"] == "CPU", use["verdict"]
cpu = next(r for r in use["resources"] if r["name"] == "CPU")
busy = next(s for s in cpu["signals"] if s["label"] == "busy")
assert busy["p99"] >= 95, busy
' || fail "cpu: CPU not named binding"

# 3. Four O_DIRECT write bursts: the disk under $dir shows saturated bursts.
dev=$("$py" -c '
import os, sys
st = os.stat(sys.argv[1])
for line in open("/proc/diskstats"):
    f = line.split()
    if (int(f[0]), int(f[1])) == (os.major(st.st_dev), os.minor(st.st_dev)):
        print(f[2])
' "$dir")
if [ -z "$dev" ]; then
  echo "note: $dir is on no block device of /proc/diskstats: disk case skipped"
else
  "$pm" stat -i 10ms -l "$dir/disk.pgr" -- sh -c "
    for i in 1 2 3 4; do
      dd if=/dev/zero of='$dir/f' oflag=direct bs=1M count=80 status=none; sleep 0.4
    done" >/dev/null 2>&1 || fail "stat dd"
  "$pm" summary --use --json "$dir/disk.pgr" 2>/dev/null | "$py" -c '
import json, sys
use = json.load(sys.stdin)["use"]
disk = next(r for r in use["resources"] if r["name"] == "disk " + sys.argv[1])
assert disk["bursts"]["count"] >= 1 and disk["saturated"] > 0, disk
assert "disk " + sys.argv[1] in use["verdict"] or disk["saturated"] < use["thresholds"]["share"], use["verdict"]
' "$dev" || fail "disk: no saturated burst on $dev"
fi
exit $failed
