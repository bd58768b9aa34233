"""Recordings of many hosts as one table and one set of series: play
--format csv --columns host,run,phase and --format openmetrics --job
--label, on two real recordings with marks (the second's header names
another host, as if recorded there), read back by Python's csv module as
one table and by the OpenMetrics text's own labels; and on a recording of
every collector (test_export.py's), whose every column and series takes
them too.

Run with test_export.py (meson suite 'process'); every wait is bounded:
the recorder's replies and the file's growth (inotify) are waited on
with deadlines, never slept for.
"""

import csv
import ctypes
import io
import json
import os
import select
import subprocess
import time

import pytest

from test_export import PERFMONGER, every_collector, run  # noqa: F401 (a fixture)
from test_export_vm import check_round_trip, need_victoria_metrics, series_of, VictoriaMetrics

IN_MODIFY = 0x2
DEADLINE_S = 30


class Recorder:
    """perfmonger record -i 0.05 driven over --cmd-fd/--ack-fd."""

    def __init__(self, path, run_id):
        self.path = path
        cmd_r, self.cmd = os.pipe()
        self.ack, ack_w = os.pipe()
        self.proc = subprocess.Popen(
            [PERFMONGER, "record", "-i", "0.05", "--no-gzip", "-l", path,
             "--meta", f"run={run_id}", f"--cmd-fd={cmd_r}", f"--ack-fd={ack_w}"],
            pass_fds=(cmd_r, ack_w), stderr=subprocess.DEVNULL)
        os.close(cmd_r)
        os.close(ack_w)
        libc = ctypes.CDLL(None, use_errno=True)
        self.watch = libc.inotify_init1(os.O_CLOEXEC)
        assert self.watch >= 0
        self.replies = b""
        self.command("ping")  # answered once the header and first sample are on disk
        assert libc.inotify_add_watch(self.watch, path.encode(), IN_MODIFY) >= 0

    def command(self, line):
        os.write(self.cmd, (line + "\n").encode())
        deadline = time.monotonic() + DEADLINE_S
        while b"\n" not in self.replies:
            left = deadline - time.monotonic()
            assert left > 0 and select.select([self.ack], [], [], left)[0], f"no reply to {line}"
            chunk = os.read(self.ack, 4096)
            assert chunk, f"recorder gone before replying to {line}"
            self.replies += chunk
        reply, self.replies = self.replies.split(b"\n", 1)
        reply = json.loads(reply)
        assert reply["ok"], reply
        return reply

    def wait_samples(self, more):
        """Until `more` ticks' samples follow the last command's."""
        want = self.command("status")["samples"] + more
        deadline = time.monotonic() + DEADLINE_S
        while self.command("status")["samples"] < want:
            left = deadline - time.monotonic()
            assert left > 0 and select.select([self.watch], [], [], left)[0], "no samples"
            os.read(self.watch, 4096)

    def stop(self):
        self.command("stop")
        assert self.proc.wait(timeout=DEADLINE_S) == 0
        for fd in (self.cmd, self.ack, self.watch):
            os.close(fd)


def record_phases(path, run_id, phases):
    """A recording whose phases each hold at least two rows."""
    r = Recorder(path, run_id)
    try:
        r.wait_samples(2)
        for phase in phases:
            r.command(f"mark {phase}")
            r.wait_samples(2)
    finally:
        r.stop()


def as_host(path, host):
    """The recording as if made on `host`: its header says so."""
    with open(path) as f:
        header, rest = f.readline(), f.read()
    h = json.loads(header)
    h["host"] = host
    with open(path, "w") as f:
        f.write(json.dumps(h, separators=(",", ":")) + "\n" + rest)


@pytest.fixture(scope="module")
def two_hosts(tmp_path_factory):
    d = tmp_path_factory.mktemp("hosts")
    a, b = str(d / "db-1.pgr"), str(d / "db-2.pgr")
    record_phases(a, "r1", ["load", "query"])
    record_phases(b, "r2", ["load", "query"])
    as_host(a, "db-1")
    as_host(b, "db-2")
    return {"db-1": (a, "r1"), "db-2": (b, "r2")}


def marks(path):
    """[(time, label)] from play --events."""
    out = run([PERFMONGER, "play", "--events", path]).stdout.decode()
    return [(j["time"], j["label"]) for j in map(json.loads, out.splitlines())
            if j.get("event") == "mark"]


def phase_at(row_time, mark_list):
    """The last mark before the row's later sample (the sample taken at a
    mark ends the phase before it)."""
    phase = "start"
    for t, label in mark_list:
        if t < row_time:
            phase = label
    return phase


def test_csv_of_two_hosts_reads_as_one_table(two_hosts):
    table = []
    for host, (path, run_id) in two_hosts.items():
        keyed = run([PERFMONGER, "play", "--format", "csv", "--columns", "host,run,phase",
                     path]).stdout.decode()
        plain = run([PERFMONGER, "play", "--format", "csv", path]).stdout.decode()
        rows = list(csv.reader(io.StringIO(keyed, newline="")))
        bare = list(csv.reader(io.StringIO(plain, newline="")))
        assert rows[0][:4] == ["host", "run", "phase", "time"]
        assert [r[3:] for r in rows] == bare  # the same table, keys in front
        mark_list = marks(path)
        assert [label for _, label in mark_list] == ["load", "query"]
        for row in csv.DictReader(io.StringIO(keyed, newline="")):
            assert row["host"] == host and row["run"] == run_id
            assert row["phase"] == phase_at(float(row["time"]), mark_list), row["time"]
            table.append(row)
    # One table: every phase of every host, told apart by its keys alone.
    seen = {(r["host"], r["run"], r["phase"]) for r in table}
    assert seen == {(h, rid, p) for h, (_, rid) in two_hosts.items()
                    for p in ("start", "load", "query")}
    assert all(float(r["elapsed_time"]) > 0 for r in table)


def test_run_key_names_the_run_column(two_hosts):
    path, _ = two_hosts["db-1"]
    out = run([PERFMONGER, "play", "--format", "csv", "--columns", "run", "--run-key", "nope",
               path])
    rows = list(csv.reader(io.StringIO(out.stdout.decode(), newline="")))
    assert rows[0][0] == "run" and all(r[0] == "" for r in rows[1:])
    assert b"no meta key 'nope': the run column is empty" in out.stderr


def openmetrics(path, *labels):
    return run([PERFMONGER, "play", "--format", "openmetrics", "--job", "bench", *labels,
                path]).stdout.decode()


def test_openmetrics_of_two_hosts_labels_every_series(two_hosts):
    for host, (path, run_id) in two_hosts.items():
        series = series_of(openmetrics(path, "--label", f"rack={host[-1]}", "--label",
                                       "env=lab"))
        assert series
        for name, labels in series:
            labels = dict(labels)
            assert (labels["instance"], labels["job"], labels["rack"], labels["env"],
                    labels["run"]) == (host, "bench", host[-1], "lab", run_id), name
        # A label given over a meta key of that name keeps both.
        relabelled = series_of(openmetrics(path, "--label", "run=all"))
        assert all(dict(l)["run"] == "all" and dict(l)["meta_run"] == run_id
                   for _, l in relabelled)


def test_two_hosts_in_one_engine(two_hosts, tmp_path):
    need_victoria_metrics()
    server = VictoriaMetrics(tmp_path)
    try:
        server.wait_ready()
        last = 0.0
        for host, (path, _) in two_hosts.items():
            text = openmetrics(path, "--label", f"rack={host[-1]}")
            server.import_text(text)
            last = max([last] + [ms / 1000 for s in series_of(text).values() for ms, _ in s])
        got = server.query('count by (instance, job, rack, run) '
                           '(count_over_time(node_context_switches_total[1h]))', last)
        assert sorted((s["metric"]["instance"], s["metric"]["job"], s["metric"]["rack"],
                       s["metric"]["run"]) for s in got) == \
            [("db-1", "bench", "1", "r1"), ("db-2", "bench", "2", "r2")]
    finally:
        server.stop()


def test_every_collectors_rows_and_series_take_the_keys(every_collector):
    path, _ = every_collector
    host = json.loads(run([PERFMONGER, "cat", path]).stdout.decode().split("\n", 1)[0])["host"]
    keyed = run([PERFMONGER, "play", "--format", "csv", "--columns", "phase,host",
                 path]).stdout.decode()
    plain = run([PERFMONGER, "play", "--format", "csv", path]).stdout.decode()
    rows = list(csv.reader(io.StringIO(keyed, newline="")))
    assert rows[0][:3] == ["phase", "host", "time"]
    assert any(c.startswith("procs.") for c in rows[0])
    assert [r[2:] for r in rows] == list(csv.reader(io.StringIO(plain, newline="")))
    assert all(r[:2] == ["start", host] for r in rows[1:])
    series = series_of(openmetrics(path, "--label", "rack=r7"))
    names = {name for name, _ in series}
    assert "perfmonger_process_cpu_seconds_total" in names
    for name, labels in series:
        labels = dict(labels)
        assert (labels["instance"], labels["job"], labels["rack"]) == (host, "bench", "r7"), name


def test_every_collector_labelled_in_one_engine(every_collector, tmp_path):
    need_victoria_metrics()
    path, _ = every_collector
    server = VictoriaMetrics(tmp_path)
    try:
        server.wait_ready()
        check_round_trip(server, openmetrics(path, "--label", "rack=r7"))
    finally:
        server.stop()
