#!/bin/sh
# summary --use on the workloads that need root, recorded at 10 ms by `stat`:
#   stress-ng --vm in a cgroup v1 memory cgroup whose limit is far under
#     what it touches -> memory named: saturated by PSI memory stalls when
#     the machine gives it the CPU to stall, and always among the errors,
#     since with no swap the group is OOM killed. cgroup v1 has no memory.high:
#     memory.limit_in_bytes is its low limit;
#   fio O_DIRECT random reads, queue depth 16, on a loop device -> that loop
#     disk named.
# Each names its resource in the verdict, as the binding one or as also
# saturated: other work on a busy machine may keep the CPU more saturated.
# Usage: use_root_workloads.sh PERFMONGER
pm=${1:?usage: use_root_workloads.sh PERFMONGER}
py=/usr/bin/python3
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: a memory cgroup and a loop device need root"; exit 77
fi
dir=$(mktemp -d) || exit 1
cg=/sys/fs/cgroup/memory/perfmonger-use-test.$$
loop=
cleanup() {
  [ -n "$loop" ] && losetup -d "$loop"
  [ -d "$cg" ] && rmdir "$cg"
  rm -rf "$dir"
}
trap cleanup EXIT
failed=0 ran=0
fail() { echo "FAIL: $*"; failed=1; }

# named RESOURCE FILE: the verdict names it; its block is printed.
named() {
  "$pm" summary --use --json "$2" 2>/dev/null | "$py" -c '
import json, sys
use = json.load(sys.stdin)["use"]
r = next(r for r in use["resources"] if r["name"] == sys.argv[1])
print(sys.argv[1] + ": saturated %.1f %% of the time; USE verdict: %s" % (r["saturated"], use["verdict"]))
assert sys.argv[1] in use["verdict"], r
' "$1"
}

# 1. Memory: 256 MiB touched over and over in a group limited to 64 MiB.
if ! command -v stress-ng >/dev/null 2>&1; then
  echo "note: stress-ng not installed (apt-get install stress-ng): memory case skipped"
elif ! mkdir "$cg" 2>/dev/null || ! echo 64M >"$cg/memory.limit_in_bytes"; then
  echo "note: no cgroup v1 memory controller at /sys/fs/cgroup/memory: memory case skipped"
else
  ran=1
  "$pm" stat -i 10ms --record-vmstat --record-pressure -l "$dir/mem.pgr" -- sh -c "
    echo \$\$ >'$cg/cgroup.procs' && exec stress-ng --vm 1 --vm-bytes 256M -t 3" >/dev/null 2>&1 ||
    fail "stat stress-ng --vm in $cg"
  named memory "$dir/mem.pgr" || fail "memory: not named"
fi

# 2. Disk: fio's random O_DIRECT reads on a loop device over a file.
if ! command -v fio >/dev/null 2>&1; then
  echo "note: fio not installed (apt-get install fio): loop disk case skipped"
else
  fallocate -l 256M "$dir/disk.img" 2>/dev/null || truncate -s 256M "$dir/disk.img" || exit 1
  if ! loop=$(losetup --direct-io=on -f --show "$dir/disk.img" 2>"$dir/losetup.err"); then
    loop=
    echo "note: no loop device ($(cat "$dir/losetup.err")): loop disk case skipped"
  else
    ran=1
    "$pm" stat -i 10ms -l "$dir/fio.pgr" -- fio --name=use --filename="$loop" --rw=randread \
      --bs=4k --direct=1 --ioengine=libaio --iodepth=16 --runtime=3 --time_based >/dev/null 2>&1 ||
      fail "stat fio on $loop"
    named "disk ${loop#/dev/}" "$dir/fio.pgr" || fail "fio: ${loop#/dev/} not named"
  fi
fi
[ "$ran" = 1 ] || exit 77
exit $failed
