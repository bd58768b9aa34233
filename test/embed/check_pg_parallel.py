#!/usr/bin/python3
# pg_parallel.c's query over 4 workers: the leader's and the named workers'
# CPU from the mark reply and from the file (the phase's system under test)
# within 2 % of the leader's schedstat delta plus the workers' final run time.
#   check_pg_parallel.py CLIENT_OUTPUT PHASES_JSON LEADER_PID
import json, sys
reference, reply, processes = (int(x) for x in open(sys.argv[1]).read().split('\n')[1].split())
phase = {p['phase']: p for p in json.load(open(sys.argv[2]))}['parallel']
recorded = phase['everyone']['sut_cpu_sec'] * 1e9
bound = 0.02 * reference
assert processes == 5, ('the leader and 4 workers', processes)
assert abs(reply - reference) <= bound, ('reply', reference, reply)
assert abs(recorded - reference) <= bound + 1000, ('file', reference, recorded)
print('pg parallel: leader + 4 workers %d ns by schedstat, %d ns in the reply (%+.3f %%), '
      '%d ns in the file' % (reference, reply, (reply - reference) / reference * 100, recorded))
