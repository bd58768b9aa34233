"""diff's run-level statistics against SciPy's on the same aggregates.

Runs test/playback/diff_stats_probe (its path: argv[1]) on seeded cases —
the run means of 2 to 12 runs a side, with and without a shift, with ties
(a counter that did not move) and without — and requires Welch's t, its
degrees of freedom and p-value, Mann-Whitney U and its p-value (SciPy's
method "auto": exact for small samples without ties) and the
Benjamini-Hochberg q-values to equal SciPy's to 1e-9 relative.
"""
import random
import subprocess
import sys

import numpy as np
from scipy import stats

REL = 1e-9


def cases():
    rng = random.Random(20261204)
    out = []
    for n in range(2, 13):
        for m in (2, 3, 5, 8, 9, 12):
            for shift in (0.0, 0.03, 0.2):
                a = [100 * (1 + rng.gauss(0, 0.02)) for _ in range(n)]
                b = [100 * (1 + shift) * (1 + rng.gauss(0, 0.02)) for _ in range(m)]
                out.append((a, b))
    out.append(([1, 1, 2, 2, 3], [2, 3, 3, 4, 4, 5]))  # ties: asymptotic U
    out.append(([5.0] * 4 + [6.0], [5.0, 7.0, 7.0]))
    return out


def close(ours, theirs):
    if np.isinf(theirs) or np.isinf(ours):
        return ours == theirs
    return abs(ours - theirs) <= REL * max(abs(theirs), 1e-300)


def bh(p):
    p = np.asarray(p)
    order = np.argsort(p)
    m = len(p)
    q = np.minimum.accumulate((p[order] * m / np.arange(1, m + 1))[::-1])[::-1]
    out = np.empty(m)
    out[order] = np.minimum(q, 1.0)
    return out


def main():
    probe = sys.argv[1]
    all_cases = cases()
    lines = [" ".join(repr(v) for v in a) + " | " + " ".join(repr(v) for v in b)
             for a, b in all_cases]
    pvals = []
    for a, b in all_cases:
        pvals.append(stats.ttest_ind(a, b, equal_var=False).pvalue)
    lines.append("bh " + " ".join(repr(float(p)) for p in pvals))
    out = subprocess.run([probe], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, check=True).stdout.splitlines()
    failures = 0
    for (a, b), line in zip(all_cases, out):
        t, df, p, u, pu = (float(w) for w in line.split())
        welch = stats.ttest_ind(a, b, equal_var=False)
        mwu = stats.mannwhitneyu(a, b)
        va, vb = np.var(a, ddof=1) / len(a), np.var(b, ddof=1) / len(b)
        want_df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
        for name, ours, theirs in (("t", t, welch.statistic), ("df", df, want_df),
                                   ("p", p, welch.pvalue), ("U", u, mwu.statistic),
                                   ("p_U", pu, mwu.pvalue)):
            if not close(ours, float(theirs)):
                failures += 1
                print(f"{name}: ours {ours!r} scipy {float(theirs)!r} for {a} vs {b}")
    qs = [float(w) for w in out[len(all_cases)].split()]
    for ours, theirs in zip(qs, bh(pvals)):
        if not close(ours, theirs):
            failures += 1
            print(f"BH q: ours {ours!r} reference {theirs!r}")
    print(f"{len(all_cases)} cases, {len(qs)} q-values, {failures} differences")
    return 1 if failures or len(out) != len(all_cases) + 1 else 0


if __name__ == "__main__":
    sys.exit(main())
