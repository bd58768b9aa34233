#!/bin/sh
# summary --use on workloads recorded at 10 ms by `stat` (the recording
# brackets the workload: no waiting, no sleep in the test itself):
#   a fake /proc tree whose counters never move -> no resource saturated
#     (this machine's own /proc is never idle: other builds run on it);
#   PerfMonger 1.0's recordings in test/data/legacy: a core busy throughout
#     -> that core binds; a quiet machine -> none;
#   stress-ng --cpu on every core            -> CPU (all, or the busiest core) binds;
#   four O_DIRECT write bursts (dd) with idle gaps between them -> the disk
#     holding the test's directory shows saturated bursts;
#   a loopback TCP pump in Python at full speed -> the CPU binds, and lo
#     carries the bytes unsaturated: lo has no link speed to fill (no U
#     share) and TCP's flow control keeps it from dropping (no S), so the
#     CPUs copying the bytes are what a pump over lo runs out of.
# use_bursty_disk.sh and use_root_workloads.sh hold the other workloads.
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

# 1b. Real recordings of PerfMonger 1.0 (test/data/legacy/README.md):
# busy100 keeps one of its 2 cores at 100 % throughout -> that core binds,
# for the whole span in one burst; small-all, a quiet machine -> none.
verdict=$("$pm" summary --use --json "$root/test/data/legacy/busy100.pgr" 2>/dev/null | "$py" -c '
import json, sys
use = json.load(sys.stdin)["use"]
core = next(r for r in use["resources"] if r["name"] == "CPU busiest core")
print(use["binding"], core["bursts"]["count"])')
[ "$verdict" = "CPU busiest core 1" ] || fail "busy100.pgr: '$verdict'"
verdict=$("$pm" summary --use --no-pager "$root/test/data/legacy/small-all.pgr.gz" 2>/dev/null |
  grep '^USE verdict:')
case $verdict in
  "USE verdict: no resource saturated"*) ;;
  *) fail "small-all.pgr.gz: '$verdict'" ;;
esac

# 2. A loopback pump: a sender and a receiver process, 1 MiB writes for 3 s.
"$pm" stat -i 10ms -l "$dir/lo.pgr" -- "$py" -c '
import os, socket, time
server = socket.socket()
server.bind(("127.0.0.1", 0))
server.listen(1)
if os.fork() == 0:
    peer, _ = server.accept()
    while peer.recv(1 << 20):
        pass
    os._exit(0)
out = socket.create_connection(server.getsockname())
buf, end = b"x" * (1 << 20), time.monotonic() + 3
while time.monotonic() < end:
    out.sendall(buf)
out.close()
os.wait()
' >/dev/null 2>&1 || fail "stat on the loopback pump"
"$pm" summary --use --json "$dir/lo.pgr" 2>/dev/null | "$py" -c '
import json, sys
use = json.load(sys.stdin)["use"]
lo = next(r for r in use["resources"] if r["name"] == "net lo")
received = next(s for s in lo["signals"] if s["label"] == "received")
assert received["mean"] > 10 * 1024, received  # KiB/s: the pump ran
assert lo["saturated"] == 0, lo                  # nothing to fill, nothing dropped
assert use["binding"] in ("CPU", "CPU busiest core"), use["verdict"]
' || fail "lo: the CPU not named, or lo saturated"

# 3. Every core busy: CPU binds.
if ! command -v stress-ng >/dev/null 2>&1; then
  echo "SKIP: stress-ng not installed (apt-get install stress-ng)"; exit 77
fi
"$pm" stat -i 10ms --record-load -l "$dir/cpu.pgr" -- \
  stress-ng --cpu "$(nproc)" -t 2 >/dev/null 2>&1 || fail "stat stress-ng"
"$pm" summary --use --json "$dir/cpu.pgr" 2>/dev/null | "$py" -c '
import json, sys
use = json.load(sys.stdin)["use"]
# All CPUs, or on a machine other work keeps partly busy the busiest core:
# CPU either way.
assert use["binding"] in ("CPU", "CPU busiest core"), use["verdict"]
cpu = next(r for r in use["resources"] if r["name"] == use["binding"])
busy = next(s for s in cpu["signals"] if s["label"] == "busy")
assert busy["p99"] >= 95, busy
' || fail "cpu: CPU not named binding"

# 4. Four O_DIRECT write bursts: the disk under $dir shows saturated bursts.
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
