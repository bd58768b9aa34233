#!/usr/bin/python3
# pg_queries.c's 200 queries: each query's CPU from the mark reply and from
# the file within max(2 %, 50 µs) of the backend's own /proc/PID/schedstat
# delta read around the query.
#   check_pg_queries.py CLIENT_OUTPUT PHASES_JSON BACKEND_PID
import json, sys
lines = open(sys.argv[1]).read().splitlines()[1:]
phases = {p['phase']: p for p in json.load(open(sys.argv[2]))}
backend = sys.argv[3]
assert len(lines) == 200, len(lines)
worst = []
for i, line in enumerate(lines):
    own, reply = (int(x) for x in line.split())
    recorded = phases['q%d' % i]['procs'][backend]['cpu_sec']
    bound = max(0.02 * own, 50_000)
    assert own >= 400_000, ('query %d used only %d ns' % (i, own))
    assert abs(reply - own) <= bound, ('reply', i, own, reply)
    assert abs(recorded * 1e9 - own) <= bound + 1000, ('file', i, own, recorded)
    worst.append(abs(reply - own))
worst.sort()
print('pg: 200 queries, |reply - schedstat| median %d ns, max %d ns' % (worst[100], worst[-1]))
