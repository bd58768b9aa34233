"""play --format csv|openmetrics on real recordings, checked by the real
consumers: Python's csv module against play's JSON, and Debian's Prometheus
(promtool backfill, then the server answering PromQL over its HTTP API on
127.0.0.1) against play's rates.

Run by meson (suite 'process'):  /usr/bin/python3 -m pytest test_export.py
with PERFMONGER (the binary) and PM_LEGACY_DATA (PerfMonger's golden files).
Every wait is bounded: subprocess timeouts, and the server's readiness is
polled with a deadline while watching that it is still alive.
"""

import csv
import io
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request

import pytest

PERFMONGER = os.environ.get("PERFMONGER", "perfmonger")
LEGACY = os.environ.get("PM_LEGACY_DATA", "")
INTERVAL = 0.75  # a [1s] window at a sample then holds it and the one before


def run(args, **kw):
    kw.setdefault("timeout", 60)
    return subprocess.run(args, check=True, capture_output=True, **kw)


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    """A real recording of this machine, one core kept busy meanwhile."""
    d = tmp_path_factory.mktemp("rec")
    path = str(d / "rec.pgr.gz")
    burn = subprocess.Popen([sys.executable, "-c", "import time\nt=time.time()+6\nwhile time.time()<t: pass"])
    try:
        run([PERFMONGER, "record", "-i", str(INTERVAL), "-t", "4.2", "-l", path,
             "--meta", "query_id=q42"])
    finally:
        burn.kill()
        burn.wait(timeout=10)
    return path


def play_json(path):
    out = run([PERFMONGER, "play", path]).stdout.decode()
    return [json.loads(line) for line in out.splitlines()]


def flatten(value, prefix, out):
    """play's JSON as {path: number}, the CSV's column names."""
    if isinstance(value, dict):
        for k, v in value.items():
            # Not columns: disk's and net's lists of names, the core count.
            if k == "num_core" or (k == "devices" and isinstance(v, list)):
                continue
            flatten(v, f"{prefix}.{k}" if prefix else k, out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            flatten(v, f"{prefix}.{i}", out)
    else:
        out[prefix] = value
    return out


def legacy(name):
    path = os.path.join(LEGACY, name)
    if not os.path.exists(path):
        pytest.skip(f"{path} missing (PM_LEGACY_DATA)")
    return path


# ---- CSV ----------------------------------------------------------------

def check_csv_matches_json(path):
    lines = play_json(path)
    text = run([PERFMONGER, "play", "--format", "csv", path]).stdout.decode()
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert text.endswith("\r\n")
    header, body = rows[0], rows[1:]
    assert len(body) == len(lines) > 0
    assert header == list(flatten(lines[0], "", {}).keys())
    for row, line in zip(body, lines):
        want = flatten(line, "", {})
        got = dict(zip(header, row))
        # A null (a process gone) is an empty cell.
        assert {k: float(v) if v else None for k, v in got.items()} == want


def test_csv_of_a_real_recording_parses_to_plays_numbers(recording):
    check_csv_matches_json(recording)


def cgroup_mount():
    for m in ("/sys/fs/cgroup", "/sys/fs/cgroup/unified"):
        if os.path.exists(os.path.join(m, "cgroup.controllers")):
            return m
    return None


@pytest.fixture(scope="module")
def every_collector(tmp_path_factory):
    """A real recording of every collector: interrupts, pressure, a child
    process, and a cgroup made for it when this machine lets us."""
    d = tmp_path_factory.mktemp("all")
    path = str(d / "all.pgr.zst")
    child = subprocess.Popen([sys.executable, "-c", "import time\nt=time.time()+6\nwhile time.time()<t: pass"])
    mount, group = cgroup_mount(), None
    try:
        if mount:
            group = os.path.join(mount, f"perfmonger-export-{os.getpid()}")
            try:
                os.mkdir(group)
                with open(os.path.join(group, "cgroup.procs"), "w") as f:
                    f.write(f"{child.pid}\n")
            except OSError:
                group = None
        args = [PERFMONGER, "record", "-i", str(INTERVAL), "-t", "2.5", "-l", path,
                "--record-intr", "--pid", str(child.pid)]
        if os.path.exists("/proc/pressure/cpu"):
            args.append("--record-pressure")
        if group:
            args += ["--cgroup", group]
        run(args)
    finally:
        child.kill()
        child.wait(timeout=10)
        if group:
            os.rmdir(group)
    return path, group


def test_csv_of_every_collector_parses_to_plays_numbers(every_collector):
    path, group = every_collector
    check_csv_matches_json(path)
    header = run([PERFMONGER, "play", "--format", "csv", path]).stdout.decode().split("\r\n")[0]
    for prefix in ("cpu.", "intr.", "disk.", "net.", "mem.", "procs."):
        assert "," + prefix in "," + header, prefix
    if group:
        assert ",cgroups." in header


@pytest.mark.parametrize("name", ["busy100.pgr.gz", "small-all.pgr.gz"])
def test_csv_of_legacy_recordings_parses_to_plays_numbers(name):
    check_csv_matches_json(legacy(name))


# ---- OpenMetrics: structure ----------------------------------------------

def export(path, *extra):
    return run([PERFMONGER, "play", "--format", "openmetrics", *extra, path]).stdout.decode()


def check_structure(text):
    """One piece per family and per series, times increasing, # EOF last."""
    lines = text.split("\n")
    assert lines[-2:] == ["# EOF", ""]
    families, family, kind, seen, last, last_ts = set(), None, None, set(), None, None
    for line in lines[:-2]:
        if line.startswith("# TYPE "):
            _, _, family, kind = line.split(" ")
            assert family not in families, f"family {family} twice"
            families.add(family)
            continue
        if line.startswith("#"):
            continue
        series, value, ts = line.rsplit(" ", 2)
        name = series.split("{", 1)[0]
        assert name == (family + "_total" if kind == "counter" else family), line
        if series != last:
            assert series not in seen, f"series {series} split"
            seen.add(series)
            last, last_ts = series, None
        assert last_ts is None or float(ts) > last_ts, line
        last_ts = float(ts)
        float(value)
    return families


def test_export_structure_labels_and_stdin(recording):
    text = export(recording)
    families = check_structure(text)
    for f in ("node_cpu_seconds", "node_disk_read_bytes", "node_network_receive_bytes",
              "node_memory_MemFree_bytes", "node_context_switches", "perfmonger_phase_info"):
        assert f in families, f
    host = socket.gethostname()
    assert f'node_cpu_seconds_total{{cpu="0",mode="user",instance="{host}",query_id="q42"}} ' in text
    assert 'instance="db-7"' in export(recording, "--instance", "db-7")
    with open(recording, "rb") as f:
        piped = run([PERFMONGER, "play", "--format", "openmetrics", "-"], stdin=f).stdout.decode()
    assert piped == text


# ---- OpenMetrics: Prometheus ---------------------------------------------

def need_prometheus():
    for tool in ("promtool", "prometheus"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} not installed: apt-get install prometheus "
                        "(scripts/setup installs it)")


def backfill(text, tmp_path):
    om = tmp_path / "export.om"
    om.write_text(text)
    data = tmp_path / "data"
    res = subprocess.run(["promtool", "tsdb", "create-blocks-from", "openmetrics",
                          str(om), str(data)], capture_output=True, timeout=120)
    assert res.returncode == 0, res.stderr.decode() + res.stdout.decode()
    return data


def test_promtool_backfills_every_collector(every_collector, tmp_path):
    need_prometheus()
    path, group = every_collector
    text = export(path)
    families = check_structure(text)
    want = ["perfmonger_interrupts", "perfmonger_process_cpu_seconds",
            "perfmonger_process_resident_memory_bytes"]
    if os.path.exists("/proc/pressure/cpu"):
        want.append("node_pressure_cpu_waiting_seconds")
    if group:
        want += ["container_cpu_usage_seconds", "container_memory_usage_bytes",
                 "perfmonger_cgroup_read_bytes"]
    for f in want:
        assert f in families, f
    assert 'comm="python3' in text  # the process's name beside its pid
    backfill(text, tmp_path)


def test_promtool_backfills_the_process_table_beside_a_pid(tmp_path):
    """A process both given to --pid and in the table: two families, no
    series twice (docs/metric-names.md), and promtool takes them."""
    need_prometheus()
    path = str(tmp_path / "procs.pgr")
    child = subprocess.Popen([sys.executable, "-c", "import time\nt=time.time()+6\nwhile time.time()<t: pass"])
    try:
        run([PERFMONGER, "record", "-i", "0.3", "-t", "1.5", "-l", path,
             "--record-procs", "--pid", str(child.pid)])
    finally:
        child.kill()
        child.wait(timeout=10)
    text = export(path)
    families = check_structure(text)
    for f in ("perfmonger_process_cpu_seconds", "perfmonger_proctable_cpu_seconds",
              "perfmonger_proctable_resident_memory_bytes"):
        assert f in families, f
    assert f'perfmonger_proctable_cpu_seconds_total{{pid="{child.pid}",comm="python3' in text
    backfill(text, tmp_path)


@pytest.mark.parametrize("name", ["busy100.pgr.gz", "small-all.pgr.gz"])
def test_promtool_backfills_legacy_exports(name, tmp_path):
    need_prometheus()
    text = export(legacy(name))
    check_structure(text)
    backfill(text, tmp_path)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """prometheus on 127.0.0.1, nothing to scrape, its own storage."""

    name = "prometheus"

    def __init__(self, data, tmp_path):
        config = tmp_path / "prometheus.yml"
        config.write_text("global: {}\n")  # no scrape jobs, no remote anything
        self.port = free_port()
        self.log = open(tmp_path / "prometheus.log", "wb")
        self.proc = subprocess.Popen(
            ["prometheus", f"--config.file={config}", f"--storage.tsdb.path={data}",
             f"--web.listen-address=127.0.0.1:{self.port}",
             "--storage.tsdb.retention.time=36500d", "--log.level=warn"],
            stdout=self.log, stderr=subprocess.STDOUT, cwd=tmp_path)
        self.log_path = tmp_path / "prometheus.log"

    def url(self, path, **params):
        q = urllib.parse.urlencode(params)
        return f"http://127.0.0.1:{self.port}{path}" + (f"?{q}" if q else "")

    def wait_ready(self, deadline_s=60):
        deadline = time.monotonic() + deadline_s
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url("/-/ready"), timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            try:  # paces the polling, and notices a server that died
                self.proc.wait(timeout=0.1)
                pytest.fail(f"{self.name} exited: " + self.log_path.read_text())
            except subprocess.TimeoutExpired:
                pass
        pytest.fail(f"{self.name} not ready within {deadline_s}s: " + self.log_path.read_text())

    def query(self, promql, t):
        with urllib.request.urlopen(self.url("/api/v1/query", query=promql, time=f"{t:.3f}"),
                                    timeout=10) as r:
            body = json.load(r)
        assert body["status"] == "success", body
        return body["data"]["result"]

    def per_cpu(self, promql, t):
        return {int(s["metric"]["cpu"]): float(s["value"][1]) for s in self.query(promql, t)}

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.log.close()


def sample_times(text):
    prefix = 'node_cpu_seconds_total{cpu="0",mode="user",'
    return [float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
            if line.startswith(prefix)]


def cpu_seconds(text, mode=None):
    """{cpu: {time: node_cpu_seconds_total}} from the export: of `mode`, or
    summed over every mode (all the CPU time that passed)."""
    out = {}
    for line in text.splitlines():
        if not line.startswith("node_cpu_seconds_total{"):
            continue
        if mode is not None and f'mode="{mode}"' not in line:
            continue
        series, value, ts = line.rsplit(" ", 2)
        cpu = int(series.split('cpu="', 1)[1].split('"', 1)[0])
        at = out.setdefault(cpu, {})
        at[float(ts)] = at.get(float(ts), 0.0) + float(value)
    return out


def user_seconds(text):
    """{cpu: {time: node_cpu_seconds_total{mode="user"}}} from the export."""
    return cpu_seconds(text, "user")


def test_prometheus_rate_matches_play(recording, tmp_path):
    need_prometheus()
    text = export(recording)
    data = backfill(text, tmp_path)
    times = sample_times(text)
    lines = play_json(recording)
    server = Server(data, tmp_path)
    try:
        server.wait_ready()
        user = user_seconds(text)
        checked = rated = 0
        for line in lines:
            k = min(range(len(times)), key=lambda i: abs(times[i] - line["time"]))
            assert abs(times[k] - line["time"]) <= 0.0011 and k >= 1
            t, dt = times[k], times[k] - times[k - 1]
            # The [1s] window ending at t must hold this pair only.
            if dt >= 0.999 or (k >= 2 and t - times[k - 2] <= 1.001):
                continue
            cores = line["cpu"]["cores"]
            # node_exporter's user includes guest time; play splits it out.
            play = {i: c["usr"] + c["guest"] for i, c in enumerate(cores)}
            # Share of the core's time, as play computes it: equal within
            # play's rounding (%.2f of usr and of guest).
            share = server.per_cpu(
                '100 * rate(node_cpu_seconds_total{mode="user"}[1s]) / ignoring(mode) '
                'sum without(mode) (rate(node_cpu_seconds_total[1s]))', t)
            assert share.keys() == play.keys()
            for cpu, want in play.items():
                assert abs(share[cpu] - want) <= 0.0101, (t, cpu, share[cpu], want)
            checked += 1
            # The plain rate, seconds per second. Prometheus extrapolates to
            # the window's start only when the gap there (1 s - dt) is under
            # 1.1 dt: then it is exactly the pair's counter delta over dt.
            if dt <= 0.5:
                continue
            rate = server.per_cpu('rate(node_cpu_seconds_total{mode="user"}[1s])', t)
            for cpu in play:
                series = user[cpu]
                dt_ms = round(t * 1000) - round(times[k - 1] * 1000)  # exact, unlike dt
                exact = (series[t] - series[times[k - 1]]) * 1000 / dt_ms
                # Not against play's usr: that is a share of the jiffies that
                # passed, this of wall time, and on a busy machine the read of
                # /proc/stat lags the sample's clock by tens of ms (11 % seen).
                # The share above is play's number.
                assert rate[cpu] == pytest.approx(exact, rel=1e-9, abs=1e-9), (t, cpu)
            rated += 1
        assert checked >= 3 and rated >= 3, f"{checked}/{rated} intervals checked: {times}"
        # The phase gauge covers the recording, labelled as the counters are.
        phase = server.query('perfmonger_phase_info{state="recording"}', times[-1])
        assert [(p["metric"]["phase"], p["metric"]["query_id"], p["value"][1])
                for p in phase] == [("start", "q42", "1")]
    finally:
        server.stop()
