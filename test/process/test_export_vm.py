"""play --format openmetrics into a second engine: Debian's VictoriaMetrics
(single node on 127.0.0.1, its own data directory, deduplication off),
imported with timestamps through /api/v1/import/prometheus and queried
back over its HTTP API: every series with every sample at its millisecond,
and a rate over the recording's whole window against summary.

VictoriaMetrics 1.79 reads a timestamp below 2^31 on that endpoint as
OpenMetrics seconds (with their fraction) and a larger one as Prometheus
text's milliseconds, so the OpenMetrics export goes in as it is (until
2038-01-19, when seconds reach 2^31).

Run beside test_export.py (meson suite 'process'), whose recording,
helpers and server harness it shares; skipped, saying so, without the
package.
"""

import json
import re
import shutil
import subprocess
import urllib.request

import pytest

from test_export import (PERFMONGER, Server, export, free_port, legacy, recording,  # noqa: F401
                         run, sample_times, cpu_seconds, user_seconds)

LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def need_victoria_metrics():
    if shutil.which("victoria-metrics") is None:
        pytest.skip("victoria-metrics not installed: apt-get install victoria-metrics "
                    "(scripts/setup installs it)")


def unescape(value):
    return re.sub(r'\\(.)', lambda m: "\n" if m.group(1) == "n" else m.group(1), value)


def series_of(text):
    """{(name, labels): [(ms, value), ...]} from an OpenMetrics export."""
    out = {}
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        series, value, ts = line.rsplit(" ", 2)
        name, _, labels = series.partition("{")
        key = (name, tuple(sorted((k, unescape(v)) for k, v in LABEL.findall(labels))))
        out.setdefault(key, []).append((round(float(ts) * 1000), float(value)))
    return out


class VictoriaMetrics(Server):
    """victoria-metrics on 127.0.0.1 with its own storage, nothing scraped;
    Server's readiness wait, URLs, per-CPU answers and stop serve it as is."""

    name = "victoria-metrics"

    def __init__(self, tmp_path):  # its own command line, not Server's
        self.port = free_port()
        self.log_path = tmp_path / "victoria-metrics.log"
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            ["victoria-metrics", f"-storageDataPath={tmp_path / 'vm-data'}",
             f"-httpListenAddr=127.0.0.1:{self.port}",
             "-retentionPeriod=100y",        # legacy recordings are years old
             "-dedup.minScrapeInterval=0s",  # every sample kept
             "-search.latencyOffset=0s",     # samples of a moment ago answer too
             "-loggerLevel=WARN"],
            stdout=self.log, stderr=subprocess.STDOUT, cwd=tmp_path)

    def import_text(self, text):
        req = urllib.request.Request(self.url("/api/v1/import/prometheus"),
                                     data=text.encode(), method="POST")
        with urllib.request.urlopen(req, timeout=60) as r:
            assert r.status == 204, r.read()
        # What was imported is searchable once flushed, not seconds later.
        with urllib.request.urlopen(self.url("/internal/force_flush"), timeout=30) as r:
            assert r.status == 200

    def exported(self, first_ms, last_ms):
        """Every series as stored from first_ms to last_ms (both in):
        {(name, labels): [(ms, value), ...]}. Without an explicit end the
        export stops at the last whole second."""
        window = {"match[]": '{__name__=~".+"}', "start": f"{first_ms / 1000:.3f}",
                  "end": f"{last_ms / 1000:.3f}"}
        out = {}
        with urllib.request.urlopen(self.url("/api/v1/export", **window), timeout=60) as r:
            for line in r.read().decode().splitlines():
                s = json.loads(line)
                key = key_of(s["metric"])
                assert key not in out, f"series {key} exported twice"
                out[key] = list(zip(s["timestamps"], s["values"]))
        return out

    def query(self, promql, t):
        with urllib.request.urlopen(self.url("/api/v1/query", query=promql, time=f"{t:.3f}",
                                             nocache="1"), timeout=10) as r:
            body = json.load(r)
        assert body["status"] == "success", body
        return body["data"]["result"]


@pytest.fixture
def vm(tmp_path):
    need_victoria_metrics()
    server = VictoriaMetrics(tmp_path)
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


def span_of(series):
    """The first and the last sample's ms over every series."""
    times = [ms for samples in series.values() for ms, _ in samples]
    return min(times), max(times)


def check_round_trip(server, text):
    """Every series back, with its every sample at its millisecond."""
    want = series_of(text)
    server.import_text(text)
    got = server.exported(*span_of(want))
    assert got.keys() == want.keys()
    for key, samples in want.items():
        assert got[key] == samples, key
    return want


def key_of(metric):
    labels = dict(metric)
    return labels.pop("__name__"), tuple(sorted(labels.items()))


def test_victoria_metrics_keeps_every_series_and_sample(vm, recording):
    text = export(recording)
    want = check_round_trip(vm, text)
    first_ms, last_ms = span_of(want)
    # The query path sees them too: every sample of every series in a
    # window just wider than the recording.
    counts = vm.query(f'count_over_time({{__name__=~".+"}}[{last_ms - first_ms + 1}ms]) '
                      'keep_metric_names', last_ms / 1000)
    assert {key_of(s["metric"]): int(s["value"][1]) for s in counts} == \
        {key: len(samples) for key, samples in want.items()}


@pytest.mark.parametrize("name", ["busy100.pgr.gz", "small-all.pgr.gz"])
def test_victoria_metrics_keeps_legacy_exports(vm, name):
    check_round_trip(vm, export(legacy(name)))


def test_victoria_metrics_rate_over_the_recording_matches_summary(vm, recording):
    text = export(recording)
    vm.import_text(text)
    times = sample_times(text)
    first, last = times[0], times[-1]
    span_ms = round(last * 1000) - round(first * 1000)
    # MetricsQL's rate over (last - span, last] starts at the sample before
    # the window, the first: the counter's whole delta over the whole span.
    rate = vm.per_cpu(f'rate(node_cpu_seconds_total{{mode="user"}}[{span_ms}ms])', last)
    user, total = user_seconds(text), cpu_seconds(text)
    summary = json.loads(run([PERFMONGER, "summary", "--json", recording]).stdout)
    cores = summary["cpu"]["cores"]
    assert rate.keys() == set(range(len(cores)))
    span = span_ms / 1000
    for cpu, got in rate.items():
        exact = (user[cpu][last] - user[cpu][first]) * 1000 / span_ms
        assert got == pytest.approx(exact, rel=1e-9, abs=1e-12), cpu
        # summary's usr is a share of the CPU time that passed, the rate one
        # of wall time (perfmonger-summary(1)); they differ by the ticks the
        # samples' reads lagged their times, more on a busy machine.
        passed = total[cpu][last] - total[cpu][first]
        want = cores[cpu]["usr"] + cores[cpu]["guest"]
        assert 100 * got * span / passed == pytest.approx(want, abs=0.006), cpu
