"""A pytest plugin that records the test session with PerfMonger.

    pytest -p perfmonger.pytest_plugin --perfmonger=run.pgr.zst

records this machine and the pytest process for the whole session, with
one mark per test (its node id, cut to the 128 bytes a label may hold),
and prints at the end the tests that used the most CPU, disk and memory
(from ``summary --phases``). A test that wants marks of its own takes
the ``perfmonger_recording`` fixture (the :class:`perfmonger.Recording`);
its marks split its test's phase, and count towards that test.
Options: --perfmonger-interval (default 100ms), --perfmonger-top (5).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pytest

from .recording import Recording

_KEY = pytest.StashKey["_Session"]()
_MAX_LABEL = 128


def mark_label(nodeid: str) -> str:
    """The mark for a test: its node id, printable ASCII, at most 128 bytes
    (a longer one keeps its start and a hash of the whole)."""
    text = "".join(c if " " <= c <= "~" else "?" for c in nodeid) or "?"
    if len(text) <= _MAX_LABEL:
        return text
    digest = hashlib.sha1(nodeid.encode()).hexdigest()[:10]
    return text[:_MAX_LABEL - 11] + "~" + digest


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("perfmonger", "recording the session with PerfMonger")
    group.addoption("--perfmonger", metavar="PATH", default=None,
                    help="record the session to PATH (.pgr, .pgr.gz, .pgr.zst), "
                         "one mark per test")
    group.addoption("--perfmonger-interval", metavar="DUR", default="100ms",
                    help="the sampling interval (default 100ms)")
    group.addoption("--perfmonger-top", metavar="N", type=int, default=5,
                    help="how many tests each ranking shows (default 5)")


class _Session:
    """The recording of one pytest session."""

    def __init__(self, config: Any) -> None:
        self.path: str = config.getoption("perfmonger")
        self.top: int = config.getoption("perfmonger_top")
        self.recording = Recording(self.path, interval=config.getoption("perfmonger_interval"),
                                   meta={"pytest": " ".join(config.invocation_params.args)},
                                   pids=[os.getpid()])
        self.labels: Dict[str, str] = {}  # mark label -> node id
        self.error: Optional[str] = None

    def start(self) -> None:
        self.recording.start()

    def mark_test(self, nodeid: str) -> None:
        label = mark_label(nodeid)
        self.labels[label] = nodeid
        self.recording.mark(label)

    def stop(self) -> None:
        try:
            self.recording.stop()
        except Exception as err:  # reported in the summary, not a crash
            self.error = str(err)


def pytest_configure(config: Any) -> None:
    if not config.getoption("perfmonger", default=None):
        return
    session = _Session(config)
    config.stash[_KEY] = session
    session.start()


def _session(config: Any) -> Optional[_Session]:
    return config.stash.get(_KEY, None)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: Any, nextitem: Any) -> Iterator[None]:
    session = _session(item.config)
    if session is not None:
        session.mark_test(item.nodeid)
    yield


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: Any, exitstatus: Any) -> None:
    s = _session(session.config)
    if s is not None:
        s.stop()


def pytest_unconfigure(config: Any) -> None:
    s = _session(config)
    if s is not None and s.recording.returncode is None and s.error is None:
        s.stop()  # a session that ended before sessionfinish


@pytest.fixture(scope="session")
def perfmonger_recording(request: Any) -> Recording:
    """The session's :class:`perfmonger.Recording` (skips the test when
    pytest runs without --perfmonger): ``perfmonger_recording.mark("x")``."""
    s = _session(request.config)
    if s is None:
        pytest.skip("not recording: run pytest with -p perfmonger.pytest_plugin --perfmonger=PATH")
    return s.recording


# ---- the report ----------------------------------------------------------

def _phases(path: str, perfmonger: str) -> List[Dict[str, Any]]:
    out = subprocess.run([perfmonger, "summary", "--phases", "--json", path],
                         stdin=subprocess.DEVNULL, capture_output=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.decode(errors="replace").strip().splitlines()[-1:])
    return json.loads(out.stdout)


def usage_by_test(phases: List[Dict[str, Any]], labels: Dict[str, str],
                  pid: int) -> Dict[str, Dict[str, float]]:
    """Per test (node id): the CPU seconds and storage bytes of process
    `pid` over the test's phases (a mark of its own splits a test's phase),
    and the growth of its RSS in bytes from before the test to its end."""
    usage: Dict[str, Dict[str, float]] = {}
    current: Optional[str] = None
    rss_before: Optional[float] = None
    for p in phases:
        label = p.get("phase", "")
        proc = (p.get("procs") or {}).get(str(pid)) or {}
        if label in labels:
            current = labels[label]
            u = usage.setdefault(current, {"cpu": 0.0, "disk": 0.0, "mem": 0.0, "start_rss": -1})
            if rss_before is not None:
                u["start_rss"] = rss_before
        if current is not None:
            u = usage[current]
            u["cpu"] += float(proc.get("cpu_sec") or 0)
            u["disk"] += float(proc.get("read_bytes") or 0) + float(proc.get("write_bytes") or 0)
            if proc.get("rss_kb") is not None and u["start_rss"] >= 0:
                u["mem"] = float(proc["rss_kb"]) * 1024 - u["start_rss"]
        if proc.get("rss_kb") is not None:
            rss_before = float(proc["rss_kb"]) * 1024
    for u in usage.values():
        del u["start_rss"]
    return usage


def _bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.1f} {unit}" if unit != "B" else f"{n:.0f} B"
        n /= 1024
    return f"{n:.1f} GiB"


def _ranking(usage: Dict[str, Dict[str, float]], key: str, top: int) -> List[Tuple[str, float]]:
    ranked = sorted(usage.items(), key=lambda kv: kv[1][key], reverse=True)
    return [(nodeid, u[key]) for nodeid, u in ranked[:top] if u[key] > 0]


def pytest_terminal_summary(terminalreporter: Any, exitstatus: Any, config: Any) -> None:
    s = _session(config)
    if s is None:
        return
    tr = terminalreporter
    tr.section(f"perfmonger: {s.path}")
    if s.error:
        tr.write_line(f"the recording failed: {s.error}")
        return
    try:
        phases = _phases(s.recording.path, s.recording.perfmonger)
    except Exception as err:
        tr.write_line(f"cannot read the recording: {err}")
        return
    usage = usage_by_test(phases, s.labels, os.getpid())
    tr.write_line(f"{len(s.labels)} tests marked; the pytest process (pid {os.getpid()}):")
    for title, key, fmt in (("most CPU", "cpu", lambda v: f"{v:8.3f} s"),
                            ("most disk (read + written to storage)", "disk",
                             lambda v: f"{_bytes(v):>10}"),
                            ("most memory (RSS growth)", "mem", lambda v: f"+{_bytes(v):>9}")):
        rows = _ranking(usage, key, s.top)
        tr.write_line(f"{title}:" + ("" if rows else " none"))
        for nodeid, value in rows:
            tr.write_line(f"  {fmt(value)}  {nodeid}")
