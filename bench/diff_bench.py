"""`perfmonger diff` on two one-hour recordings at 10 ms (issue 50).

Usage: /usr/bin/python3 bench/diff_bench.py PERFMONGER SCRATCH_DIR [SECONDS]

Records 3 s of this machine at 10 ms (`perfmonger stat`), then writes two
recordings of SECONDS (default 3600) at 10 ms from it: the same header,
and samples whose counters move by the real recording's deltas, taken in
a shuffled order (a seed per recording), so every series keeps its real
shape and the two recordings differ. Both are gzip-compressed, as the
recorder writes them. Then times `diff A B` (within-run: the block
bootstrap over every series) and `diff --json A B`, best of 3 (wall and
user time), with the peak RSS of the child and the load average. Figures
go in bench/README.md.
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


def timed(args):
    """Best of 3: wall and user CPU seconds (the user time, summed over the
    reading threads, says more than the wall on a loaded machine)."""
    best, best_user = None, None
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
        start = time.monotonic()
        subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        elapsed = time.monotonic() - start
        user = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
        best = elapsed if best is None else min(best, elapsed)
        best_user = user if best_user is None else min(best_user, user)
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return best, best_user, rss


def main():
    perfmonger, scratch = sys.argv[1], sys.argv[2]
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 3600
    os.makedirs(scratch, exist_ok=True)
    src = os.path.join(scratch, "source.pgr")
    subprocess.run([perfmonger, "stat", "-i", "10ms", "--no-gzip", "-l", src, "--", "sleep",
                    "3"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    header, samples = source_lines(perfmonger, src)
    paths = []
    for seed in (1, 2):
        path = os.path.join(scratch, f"hour{seed}.pgr.gz")
        synthesize(header, samples, path, seconds, seed)
        paths.append(path)
    size = sum(os.path.getsize(p) for p in paths) / 2 / 2**20
    print(f"two recordings of {seconds:.0f} s at 10 ms ({int(seconds * 100)} samples, "
          f"{size:.1f} MiB gzip each)")
    for label, extra in (("diff A B (text)", []), ("diff --json A B", ["--json"])):
        best, user, rss = timed([perfmonger, "diff"] + extra + paths)
        print(f"{label}: best of 3 {best:.2f} s wall, {user:.2f} s user; "
              f"peak RSS so far {rss:.0f} MiB; load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
