"""`perfmonger diff` on two one-hour recordings at 10 ms (issue 50).

Usage: /usr/bin/python3 bench/diff_bench.py [--reuse] [--against OLD_PERFMONGER]
           PERFMONGER SCRATCH_DIR [SECONDS]

Records 3 s of this machine at 10 ms (`perfmonger stat`), then writes two
recordings of SECONDS (default 3600) at 10 ms from it: the same header,
and samples whose counters move by the real recording's deltas, taken in
a shuffled order (a seed per recording), so every series keeps its real
shape and the two recordings differ. Both are gzip-compressed, as the
recorder writes them. Then times `diff A B` (within-run: the block
bootstrap over every series) and `diff --json A B`, best of 3 (wall and
user time), with the peak RSS of the child and the load average. Figures
go in bench/README.md.

--reuse times the two recordings SCRATCH_DIR already holds (read only).
--against times OLD_PERFMONGER too, run for run alternately with
PERFMONGER, so that both see the same load: on a shared machine compare
their user times, not their walls.
"""
import gzip
import json
import os
import random
import resource
import subprocess
import sys
import time


def delta(cur, prev):
    if isinstance(cur, list):
        if not isinstance(prev, list) or len(prev) != len(cur):
            return None
        return [delta(c, p) for c, p in zip(cur, prev)]
    if isinstance(cur, int) and isinstance(prev, int):
        return max(cur - prev, 0)
    return None


def add(value, d):
    if isinstance(value, list):
        return [add(v, x) if x is not None else v for v, x in zip(value, d)]
    return value + d


def source_lines(perfmonger, path):
    out = subprocess.run([perfmonger, "cat", path], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    samples = [json.loads(line) for line in out[1:] if '"event"' not in line]
    return out[0], samples


def synthesize(header, samples, path, seconds, seed):
    keys = [k for k in samples[0] if k not in ("t", "mono")]
    deltas = []
    for prev, cur in zip(samples, samples[1:]):
        deltas.append({k: delta(cur[k], prev[k]) for k in keys if k in prev})
    rng = random.Random(seed)
    count = int(seconds * 100)
    cur = dict(samples[0])
    with gzip.open(path, "wt", compresslevel=1) as f:
        f.write(header + "\n")
        for i in range(count):
            f.write(json.dumps(cur, separators=(",", ":")) + "\n")
            d = deltas[rng.randrange(len(deltas))]
            nxt = {"t": cur["t"] + 10_000_000, "mono": cur["mono"] + 10_000_000}
            for k in keys:
                nxt[k] = add(cur[k], d[k]) if d.get(k) is not None else cur[k]
            cur = nxt
        f.write(json.dumps({"event": "end", "t": cur["t"], "mono": cur["mono"],
                            "reason": "stop", "samples": count, "missed": 0}) + "\n")


def run_once(args):
    """Wall and user CPU seconds of one run (the user time, summed over the
    reading threads, says more than the wall on a loaded machine)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    start = time.monotonic()
    subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    elapsed = time.monotonic() - start
    return elapsed, resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before


def timed(commands):
    """Best of 3 of each command, taken in turn: (wall, user) per command,
    and the peak RSS of every child so far."""
    best = [(float("inf"), float("inf")) for _ in commands]
    for _ in range(3):
        for i, args in enumerate(commands):
            wall, user = run_once(args)
            best[i] = (min(best[i][0], wall), min(best[i][1], user))
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return best, rss


def make_recordings(perfmonger, scratch, seconds):
    src = os.path.join(scratch, "source.pgr")
    subprocess.run([perfmonger, "stat", "-i", "10ms", "--no-gzip", "-l", src, "--", "sleep",
                    "3"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    header, samples = source_lines(perfmonger, src)
    for seed in (1, 2):
        synthesize(header, samples, os.path.join(scratch, f"hour{seed}.pgr.gz"), seconds, seed)


def main():
    args = sys.argv[1:]
    reuse = "--reuse" in args
    args = [a for a in args if a != "--reuse"]
    against = None
    if "--against" in args:
        i = args.index("--against")
        against = args[i + 1]
        del args[i:i + 2]
    perfmonger, scratch = args[0], args[1]
    seconds = float(args[2]) if len(args) > 2 else 3600
    os.makedirs(scratch, exist_ok=True)
    if not reuse:
        make_recordings(perfmonger, scratch, seconds)
    paths = [os.path.join(scratch, f"hour{seed}.pgr.gz") for seed in (1, 2)]
    size = sum(os.path.getsize(p) for p in paths) / 2 / 2**20
    print(f"two recordings ({size:.1f} MiB gzip each)")
    binaries = [perfmonger] + ([against] if against else [])
    for label, extra in (("diff A B (text)", []), ("diff --json A B", ["--json"])):
        best, rss = timed([[b, "diff"] + extra + paths for b in binaries])
        for b, (wall, user) in zip(binaries, best):
            print(f"{label} [{b}]: best of 3 {wall:.2f} s wall, {user:.2f} s user; "
                  f"peak RSS so far {rss:.0f} MiB; load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
