#!/usr/bin/python3
# pg_queries.c's 200 queries: each query's CPU from the mark reply and from
# the file within max(2 %, 50 µs) of the backend's own /proc/PID/schedstat
# delta read around the query (or, when the backend woke between the
# query and a mark, the delta read around the two marks).
#   check_pg_queries.py CLIENT_OUTPUT PHASES_JSON BACKEND_PID
import json, sys
lines = open(sys.argv[1]).read().splitlines()[1:]
phases = {p['phase']: p for p in json.load(open(sys.argv[2]))}
backend = sys.argv[3]
assert len(lines) == 200, len(lines)
worst = []
# The reply's phase runs from one mark's sample to the next: at least the
# query, at most what the backend ran from before the opening mark to after
# the closing one (the same but for an idle-timer wake-up between).
def off(value, low, high):
    return max(low - value, value - high, 0)

for i, line in enumerate(lines):
    own, reply, marks = (int(x) for x in line.split())
    recorded = phases['q%d' % i]['procs'][backend]['cpu_sec']
    bound = max(0.02 * own, 50_000)
    assert own >= 400_000, ('query %d used only %d ns' % (i, own))
    assert off(reply, own, marks) <= bound, ('reply', i, own, marks, reply)
    assert off(recorded * 1e9, own, marks) <= bound + 1000, ('file', i, own, marks, recorded)
    worst.append(off(reply, own, marks))
worst.sort()
print('pg: 200 queries, reply outside the schedstat bracket by median %d ns, max %d ns' % (worst[100], worst[-1]))
