#!/bin/sh
# Issue 51's bursty disk: a 200 ms O_DIRECT write every 2 s, four cycles,
# recorded at 10 ms by `stat` while `sar -d 1` (sysstat) records the same
# run beside it. summary --use must report the disk's saturated bursts, as
# many as the cycles and as long as the writes lasted (200 ms and the last
# write, within two intervals), while sar's one-second average
# %util for that disk stays at or under 35 %: the bursts a one-second
# average hides.
# The disk is a loop device over a file in the test's directory, with
# direct I/O to its backing file: the machine's other I/O (builds beside
# the test) reaches the disk under that file, never the loop device, so it
# neither adds bursts nor joins them. Hence root, as CI runs the tests.
# Usage: use_bursty_disk.sh PERFMONGER
pm=${1:?usage: use_bursty_disk.sh PERFMONGER}
py=/usr/bin/python3
cycles=4
export LC_ALL=C  # sar's "Average:" and its decimal points
if ! command -v sar >/dev/null 2>&1; then
  echo "SKIP: sar not installed (apt-get install sysstat)"; exit 77
fi
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: the bursty disk is a loop device: run as root"; exit 77
fi
dir=$(mktemp -d) || exit 1
loop=
cleanup() {
  [ -n "$loop" ] && losetup -d "$loop"
  rm -rf "$dir"
}
trap cleanup EXIT
fallocate -l 256M "$dir/disk.img" 2>/dev/null || truncate -s 256M "$dir/disk.img" || exit 1
if ! loop=$(losetup --direct-io=on -f --show "$dir/disk.img" 2>"$dir/losetup.err"); then
  echo "SKIP: no loop device: $(cat "$dir/losetup.err")"; loop=; exit 77
fi
name=${loop#/dev/}

# sar first, for a second more than the workload lasts: its average spans
# the whole run. Its count ends it; `wait` below waits for that.
sar -d -p 1 $((cycles * 2 + 1)) >"$dir/sar.txt" 2>&1 &
sar_pid=$!
"$pm" stat -i 10ms -l "$dir/bursty.pgr" -- "$py" -c '
import mmap, os, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_DIRECT)
# 8 MiB a write: the block layer splits it into requests issued together,
# so the disk is never idle between two of them while Python loops.
buf = mmap.mmap(-1, 8 << 20)  # page-aligned, as O_DIRECT wants
size, at = 256 << 20, 0
lengths = open(sys.argv[3], "w")
start = time.monotonic()
for cycle in range(int(sys.argv[2])):
    begin = start + 2 * cycle
    time.sleep(max(0, begin - time.monotonic()))
    first = time.monotonic()  # the sleep may have overrun begin
    while time.monotonic() < begin + 0.2:  # writes back to back for 200 ms
        os.pwrite(fd, buf, at)
        at = (at + len(buf)) % size
    print(time.monotonic() - first, file=lengths)  # as long as it took: the last write ends it
time.sleep(max(0, start + 2 * int(sys.argv[2]) - time.monotonic()))  # the last quiet 1.8 s
' "$loop" "$cycles" "$dir/lengths" >/dev/null 2>"$dir/stat.err" || {
  echo "FAIL: stat on the bursty writes: $(cat "$dir/stat.err")"; exit 1
}
wait "$sar_pid" || { echo "FAIL: sar -d: $(cat "$dir/sar.txt")"; exit 1; }

# The header names the columns (DEV comes last in sysstat 12.6, first before).
sar_util=$(awk -v dev="$name" '
  $1 == "Average:" { for (i = 2; i <= NF; i++) { if ($i == "%util") u = i; if ($i == "DEV") d = i } }
  $1 == "Average:" && u && d && $d == dev { print $u }' "$dir/sar.txt")
if [ -z "$sar_util" ]; then
  echo "FAIL: no Average %util for $name in sar's output:"; cat "$dir/sar.txt"; exit 1
fi

"$pm" summary --use --json "$dir/bursty.pgr" 2>/dev/null | "$py" -c '
import json, sys
name, cycles, sar_util = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
lengths = [float(x) for x in open(sys.argv[4])]
use = json.load(sys.stdin)["use"]
disk = next(r for r in use["resources"] if r["name"] == "disk " + name)
b = disk["bursts"]
print("disk %s: %d bursts of %.3f to %.3f s, saturated %.1f %%; sar -d 1 average %%util %.2f"
      % (name, b["count"], b["shortest"], b["longest"], disk["saturated"], sar_util))
print("USE verdict:", use["verdict"])
print("the writes lasted", " ".join("%.3f" % x for x in lengths), "s")
assert b["count"] == cycles, b
# As long as the writes lasted (200 ms and the last write), give or take
# the intervals at either end a burst only partly fills.
slack = 2 * use["interval_max"] + 0.01
assert abs(b["shortest"] - min(lengths)) <= slack, (b, lengths, slack)
assert abs(b["longest"] - max(lengths)) <= slack, (b, lengths, slack)
# Named: the binding resource, or also saturated (other work on the
# machine may keep a core busier than the disk).
assert "disk " + name in use["verdict"], use["verdict"]
assert sar_util <= 35, sar_util
' "$name" "$cycles" "$sar_util" "$dir/lengths" || {
  echo "FAIL: bursty disk"; [ -z "$KEEP" ] || cp "$dir/bursty.pgr" "$dir/sar.txt" "$KEEP"; exit 1; }
