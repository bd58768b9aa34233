#!/usr/bin/python3
"""A one-hour recording at 10 ms into a pandas DataFrame: perfmonger.read()
beside pandas.read_csv of play's CSV export of the same file.

Usage (from the repository, after `ninja -C build tools/perfmonger`):

    bench/python_read.py [--perfmonger build/tools/perfmonger] [--dir DIR]

The hour is made from a real minute: `record -i 10ms -t 60s` of this
machine (format v1, every line absolute counters), repeated until it
holds 360,000 samples (a minute at 10 ms on a busy machine holds fewer
than 6,000 after missed ticks), each repetition's times shifted by the
minute's span and its counters raised by the minute's growth (levels,
such as memory, kept), so every rate is a real one; then compressed with zstd as the recorder writes it (each line
its own frame would be larger; play reads the two alike). Files are kept
in DIR (default $TMPDIR/perfmonger-bench-python) for reruns.

Each measurement runs in a fresh /usr/bin/python3 (pandas imported
first), best of --runs: wall time, and peak RSS above the RSS after the
imports (getrusage), beside the final frame's memory_usage(deep=True).
Then frame.sum() touches every value (read() maps its arrays, whose
pages are read on first touch): its time is printed apart, and the peak
RSS is taken after it; Python's CPU is given with the sum and before it.
The export rows: `perfmonger.export()` once (play --format columns into
a file, summary --phases beside it; its wall and CPU printed apart, as
the CSV export's are), then read() of that file, which maps it. The
comparisons: recording -> frame (read() of the recording) and export ->
frame (read() of the columns export against read_csv of the CSV export,
each made beforehand), the touch of every value counted on both sides.
Prints figures; judges nothing.
"""

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

HOUR = 360_000  # samples: an hour at 10 ms
DISK_LEVELS = {8}  # in_flight: a level, not a counter


def shifted(sample, k, first, last):
    """Sample `sample` of the minute, moved k minutes on."""
    out = dict(sample)
    span_ns = last["mono"] - first["mono"] + 10_000_000
    out["t"] = sample["t"] + k * span_ns
    out["mono"] = sample["mono"] + k * span_ns
    for key in ("cpu", "proc", "disk", "net", "intr", "softirq", "vmstat"):
        if key not in sample:
            continue
        out[key] = grow(sample[key], first[key], last[key], k, key)
    return out


def grow(value, first, last, k, key, index=None):
    if isinstance(value, list):
        return [grow(v, f, l, k, key, i) for i, (v, f, l) in enumerate(zip(value, first, last))]
    if not isinstance(value, int) or (key == "disk" and index in DISK_LEVELS):
        return value
    return value + k * (last - first)


def make_hour(perfmonger, d):
    minute = os.path.join(d, "minute.pgr")
    hour = os.path.join(d, "hour.pgr.zst")
    if os.path.exists(hour):
        return hour
    if not os.path.exists(minute):
        print("recording a real minute at 10 ms ...", flush=True)
        subprocess.run([perfmonger, "record", "-i", "10ms", "-t", "60s", "--format-version", "1",
                        "-l", minute], check=True)
    with open(minute) as f:
        lines = f.read().splitlines()
    header = lines[0]
    samples = [json.loads(ln) for ln in lines[1:] if '"t"' in ln and '"event"' not in ln]
    first, last = samples[0], samples[-1]
    print(f"writing an hour: {HOUR} samples, the minute's {len(samples)} repeated ...", flush=True)
    z = subprocess.Popen(["zstd", "-q", "-1", "-f", "-o", hour], stdin=subprocess.PIPE)
    z.stdin.write((header + "\n").encode())
    for i in range(HOUR):
        k, s = divmod(i, len(samples))
        line = json.dumps(shifted(samples[s], k, first, last), separators=(",", ":")) + "\n"
        z.stdin.write(line.encode())
    z.stdin.close()
    if z.wait() != 0:
        sys.exit("zstd failed")
    return hour


MEASURE = r'''
import json, os, resource, sys, time
import numpy, pandas
sys.path.insert(0, sys.argv[3])
import perfmonger
def rss_kb():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
base = rss_kb()
kind, path = sys.argv[1], sys.argv[2]
cpu0 = resource.getrusage(resource.RUSAGE_SELF)
cpu0 = cpu0.ru_utime + cpu0.ru_stime
t = time.perf_counter()
if kind == "read":
    frame = perfmonger.read(path, perfmonger=os.environ["PERFMONGER"])
elif kind == "read_nophases":
    frame = perfmonger.read(path, phases=False, perfmonger=os.environ["PERFMONGER"])
elif kind == "read_export":
    frame = perfmonger.read(path)  # mapped: no process runs
elif kind == "read_cpu":
    frame = perfmonger.read(path, columns=["cpu.*"], perfmonger=os.environ["PERFMONGER"])
else:
    frame = pandas.read_csv(path, index_col=0)
wall = time.perf_counter() - t
own = resource.getrusage(resource.RUSAGE_SELF)
own = own.ru_utime + own.ru_stime - cpu0  # before the first touch
t = time.perf_counter()
frame.sum()  # every value touched: a mapped frame's pages are read here
touch = time.perf_counter() - t
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"wall": wall, "touch": touch, "cpu": me.ru_utime + me.ru_stime - cpu0, "own_cpu": own,
                  "child_cpu": kids.ru_utime + kids.ru_stime, "rows": len(frame), "cols": frame.shape[1],
                  "frame_mb": frame.memory_usage(deep=True).sum() / 2**20,
                  "base_mb": base / 1024, "peak_mb": peak / 1024, "child_peak_mb": child / 1024}))
'''


EXPORT = r'''
import sys
sys.path.insert(0, sys.argv[4])
import perfmonger
perfmonger.export(sys.argv[1], sys.argv[2], perfmonger=sys.argv[3])
'''


def timed(args, out_path):
    """Runs `args` with standard output into `out_path`: (wall, CPU of it
    and its children)."""
    t = time.perf_counter()
    with open(out_path, "wb") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        sys.exit(f"{args[0]} failed")
    return time.perf_counter() - t, usage.ru_utime + usage.ru_stime


def measure(kind, path, perfmonger, runs):
    best = None
    for _ in range(runs):
        out = subprocess.run(["/usr/bin/python3", "-c", MEASURE, kind, path,
                              os.path.join(HERE, "..", "python")],
                             check=True, capture_output=True, text=True,
                             env=dict(os.environ, PERFMONGER=perfmonger))
        r = json.loads(out.stdout)
        if best is None or r["wall"] < best["wall"]:
            best = r
    best["above_base_mb"] = best["peak_mb"] - best["base_mb"]
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--perfmonger", default=os.path.join(HERE, "..", "build", "tools", "perfmonger"))
    ap.add_argument("--dir", default=os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                                  "perfmonger-bench-python"))
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    pm = os.path.abspath(a.perfmonger)
    os.makedirs(a.dir, exist_ok=True)
    hour = make_hour(pm, a.dir)
    csv = os.path.join(a.dir, "hour.csv")
    t = time.perf_counter()
    with open(csv, "wb") as f:
        subprocess.run([pm, "play", "--format", "csv", hour], stdout=f, stderr=subprocess.DEVNULL,
                       check=True)
    export = time.perf_counter() - t
    columns, columns_cpu = timed([pm, "play", "--format", "columns", hour],
                                 os.path.join(a.dir, "hour.columns.play"))
    exported, exported_cpu = timed(["/usr/bin/python3", "-c", EXPORT, hour,
                                    os.path.join(a.dir, "hour.columns"), pm,
                                    os.path.join(HERE, "..", "python")], os.devnull)
    print(f"hour: {os.path.getsize(hour) / 2**20:.1f} MiB zstd; CSV export "
          f"{os.path.getsize(csv) / 2**20:.0f} MiB in {export:.2f} s; "
          f"play --format columns into a file {columns:.2f} s (CPU {columns_cpu:.2f} s); "
          f"perfmonger.export() {exported:.2f} s (CPU {exported_cpu:.2f} s, with summary "
          f"--phases and Python)")
    rows = []
    paths = {"read_csv": csv, "read_export": os.path.join(a.dir, "hour.columns")}
    for kind in ("read", "read_nophases", "read_cpu", "read_export", "read_csv"):
        r = measure(kind, paths.get(kind, hour), pm, a.runs)
        rows.append((kind, r))
        print(f"{kind:14} {r['wall']:7.2f} s wall (+{r['touch']:.2f} s for frame.sum()), CPU {r['cpu']:.2f} s ({r['own_cpu']:.2f} s before the sum) + children "
              f"{r['child_cpu']:.2f} s  {r['rows']} rows x {r['cols']} cols  "
              f"frame {r['frame_mb']:.0f} MiB  peak above imports {r['above_base_mb']:.0f} MiB "
              f"({r['above_base_mb'] / r['frame_mb']:.2f}x frame)  child peak "
              f"{r['child_peak_mb']:.0f} MiB", flush=True)
    read, ex, csv_r = rows[0][1], rows[3][1], rows[-1][1]
    print(f"recording -> frame: read() is {csv_r['wall'] / read['wall']:.1f}x faster than "
          f"read_csv of a CSV export in wall time ({(csv_r['wall'] + export) / read['wall']:.1f}x "
          f"counting the CSV export); in CPU {csv_r['cpu'] / (read['cpu'] + read['child_cpu']):.1f}x")
    both = (ex["wall"] + ex["touch"], csv_r["wall"] + csv_r["touch"])
    print(f"export -> frame: read(hour.columns) is {csv_r['wall'] / ex['wall']:.1f}x faster than "
          f"read_csv(hour.csv) in wall time, {both[1] / both[0]:.1f}x with every value touched; "
          f"in CPU {csv_r['cpu'] / ex['cpu']:.1f}x (every value touched)")
    print(f"load average: {open('/proc/loadavg').read().split()[0]} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
