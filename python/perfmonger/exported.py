"""Columns exports: a recording's rates saved once, mapped on every read.

``perfmonger.export(recording, "hour.columns")`` saves ``perfmonger play
--format columns`` to a file (perfmonger-play(1), FORMAT COLUMNS) and
appends a trailer line with ``summary --phases --json``'s figures, so the
file holds all that :func:`perfmonger.read` returns: the columns, host,
meta and events (the header), the phases' figures (the trailer).
``read()`` knows an export by its first bytes, not its name, and maps its
arrays with numpy.memmap: no process runs, nothing is parsed but the two
JSON lines. A window (start, end, phase) selects the rows in place.

Trailer (after the last column's last value; optional: a file saved by
``play --format columns`` alone has none, and its phases have bounds but
no figures)::

    {"format":"perfmonger-columns-phases","version":1,"phases":[...]}\\n

``phases`` is ``summary --phases --json`` of the whole recording.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import subprocess
import tempfile
import warnings
from typing import Any, Dict, List, Optional, Tuple

from ._errors import DamagedRecording, ReadError
from ._executable import find_perfmonger
from ._phases import marks_of, opening_marks

MAGIC = b'{"format":"perfmonger-columns"'
_TRAILER = "perfmonger-columns-phases"
_REMAKE = "make it again with perfmonger.export(recording, path)"

__all__ = ["export", "is_export"]


def is_export(path: str) -> bool:
    """True when `path` starts as a columns export does (not by its name)."""
    try:
        with open(path, "rb") as f:
            return f.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


def export(recording: "os.PathLike[str] | str", out_path: "os.PathLike[str] | str",
           *, perfmonger: Optional[str] = None) -> str:
    """Saves `recording` as a columns export at `out_path` (replaced
    atomically), for :func:`perfmonger.read` to map without running play.

    Runs ``play --format columns`` into the file and ``summary --phases
    --json`` beside it, whose figures go in the trailer. Returns
    `out_path`. Raises ReadError with the reader's message when the
    recording cannot be read; a damaged one whose lost lines play skips
    is exported as play reads it, with a DamagedRecording warning."""
    exe = find_perfmonger(perfmonger)
    src, dst = os.fspath(recording), os.fspath(out_path)
    fd, tmp = tempfile.mkstemp(prefix=".export-", dir=os.path.dirname(os.path.abspath(dst)))
    try:
        with os.fdopen(fd, "wb") as out, tempfile.TemporaryFile() as figures:
            # summary walks the recording beside play: on two cores, no wait.
            summary = subprocess.Popen([exe, "summary", "--phases", "--json", src],
                                       stdin=subprocess.DEVNULL, stdout=figures,
                                       stderr=subprocess.DEVNULL)
            play = subprocess.run([exe, "play", "--format", "columns", src],
                                  stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.PIPE)
            summary.wait()
            figures.seek(0)
            # Exit 2 after the header (written after the whole walk): lines
            # lost to damage, which play skipped; else nothing to export.
            if play.returncode != 0 and (play.returncode != 2 or out.tell() == 0):
                raise ReadError(src, _last_error(play.stderr), play.returncode)
            if play.returncode == 2:
                lost = [ln for ln in play.stderr.decode("utf-8", "replace").splitlines()
                        if ln.startswith("warning:") and " lost " in ln]
                warnings.warn(DamagedRecording("; ".join(lost) or _last_error(play.stderr)),
                              stacklevel=2)
            phases = json.load(figures) if summary.returncode == 0 else []
            out.write(json.dumps({"format": _TRAILER, "version": 1, "phases": phases},
                                 separators=(",", ":")).encode() + b"\n")
        os.replace(tmp, dst)
    except BaseException:
        os.unlink(tmp)
        raise
    return dst


def _last_error(stderr: bytes) -> str:
    lines = [ln for ln in stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
    errors = [ln for ln in lines if ": error:" in ln]
    return (errors or lines or ["(no message)"])[-1]


class Export:
    """One export file: its header, arrays mapped in place, trailer."""

    def __init__(self, path: str, np: Any) -> None:
        self.path = path
        with open(path, "rb") as f:
            line = f.readline(1 << 26)
            self.header = self._parse(line, "header")
            if self.header.get("format") != "perfmonger-columns" or \
                    self.header.get("dtype") != "<f8":
                self._fail(f"unknown columns header {line[:100]!r}")
            self.offset = len(line)
            self.rows = int(self.header.get("rows", -1))
            self.names: List[str] = list(self.header.get("columns", []))
            end = self.offset + self.rows * len(self.names) * 8
            size = os.fstat(f.fileno()).st_size
            if self.rows < 0 or size < end:
                self._fail(f"truncated ({size} bytes, the header says {end} and more)")
            f.seek(end)
            self.trailer = self._parse(f.readline(), "trailer") if size > end else None
            if self.trailer is not None and self.trailer.get("format") != _TRAILER:
                self._fail("unknown trailer after the columns")
            self.mapped = None
            if self.rows > 0 and self.names:
                self.mapped = np.asarray(np.memmap(f, dtype="<f8", mode="c", offset=self.offset,
                                                   shape=(len(self.names), self.rows)))

    def _fail(self, what: str) -> None:
        raise ReadError(self.path, f"not a whole columns export: {what}; {_REMAKE}", 1)

    def _parse(self, line: bytes, what: str) -> Dict[str, Any]:
        if not line.endswith(b"\n"):
            self._fail(f"its {what} line is cut short")
        try:
            value = json.loads(line)
        except ValueError:
            value = None
        if not isinstance(value, dict):
            self._fail(f"its {what} line is not JSON")
        return value

    def column(self, name: str) -> Any:
        return self.mapped[self.names.index(name)]

    def phase_figures(self) -> Optional[List[Dict[str, Any]]]:
        return None if self.trailer is None else list(self.trailer.get("phases", []))


# --- windows ---------------------------------------------------------------

_UNITS = {"ns": 1e-9, "us": 1e-6, "\u00b5s": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
_DURATION = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|\u00b5s|ms|s|m|h)")


def _duration(text: str) -> Optional[float]:
    try:
        return float(text)
    except ValueError:
        pass
    pos, total = 0, 0.0
    while pos < len(text):
        m = _DURATION.match(text, pos)
        if m is None:
            return None
        total += float(m.group(1)) * _UNITS[m.group(2)]
        pos = m.end()
    return total if text else None


class Bound:
    """A window bound on an export: elapsed seconds, epoch seconds, or a mark."""

    def __init__(self, flag: str, value: Any) -> None:
        self.elapsed: Optional[float] = None
        self.epoch: Optional[float] = None
        self.mark: Optional[str] = None
        if isinstance(value, datetime.timedelta):
            self.elapsed = value.total_seconds()
        elif isinstance(value, datetime.datetime):
            self.epoch = (value if value.tzinfo else value.astimezone()).timestamp()
        elif isinstance(value, (int, float)):
            self.elapsed = float(value)
        elif str(value).startswith("mark:") and len(str(value)) > 5:
            self.mark = str(value)[5:]
        else:
            self._text(flag, str(value))

    def _text(self, flag: str, text: str) -> None:
        self.elapsed = _duration(text)
        if self.elapsed is not None:
            return
        try:
            when = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(f"{flag}={text!r} on a columns export: give elapsed seconds "
                             "(30, '1m30s'), a datetime, RFC 3339 or 'mark:LABEL'") from None
        self.epoch = (when if when.tzinfo else when.astimezone()).timestamp()


class Selection:
    """A window's rows [i, j) of an export, with what play would say of
    it: its events, its first row's earlier sample, and the phases it
    covers (summary --phases' figures for the phases wholly inside it)."""

    def __init__(self, ex: Export, np: Any, start: Any, end: Any, phase: Optional[str]) -> None:
        events = list(ex.header.get("events", []))
        rows = list(ex.header.get("event_rows", []))
        self.ex, self.np = ex, np
        self.marks = [k for k, e in enumerate(events) if e.get("event") == "mark"]
        self.event_rows = rows if len(rows) == len(events) else None
        self.lo, self.hi = float("-inf"), float("inf")
        self.i, self.j = 0, ex.rows if ex.mapped is not None else 0
        if phase is not None:
            self._phase(events, phase)
        else:
            if start is not None:
                self._start(events, Bound("start", start))
            if end is not None:
                self._end(events, Bound("end", end))
        self.j = max(self.i, self.j)
        self.events = [e for e in events if self.lo <= e["elapsed_time"] <= self.hi]

    def _mark(self, events: List[Dict[str, Any]], label: str, after: float) -> int:
        for k in self.marks:
            if events[k].get("label") == label and events[k]["elapsed_time"] >= after:
                return k
        raise ReadError(self.ex.path, f"no mark '{label}' in the window: see the export's "
                        "marks (read it whole)", 1)

    def _row_of(self, events: List[Dict[str, Any]], k: int, later: bool) -> int:
        """The rows before event k (from the export; without event_rows,
        from the rows' times)."""
        if self.event_rows is not None:
            return int(self.event_rows[k])
        return self._row_at(events[k]["elapsed_time"], later)

    def _row_at(self, at: float, later: bool, key: str = "elapsed_time") -> int:
        """For a start (later False): the first row whose earlier sample
        is at or after `at` (in column `key`: elapsed_time or time); for
        an end: past the last row whose later sample is at or before it."""
        if self.ex.mapped is None:
            return 0
        column = self.ex.column(key)
        if later:
            return int(self.np.searchsorted(column, at, side="right"))
        if self.ex.header["first"][key] >= at:
            return 0
        return int(self.np.searchsorted(column, at, side="left")) + 1

    def _phase(self, events: List[Dict[str, Any]], label: str) -> None:
        k = self._mark(events, label, float("-inf"))
        self.lo, self.i = events[k]["elapsed_time"], self._row_of(events, k, False)
        later = [m for m in self.marks if m > k]
        if later:
            self.hi, self.j = events[later[0]]["elapsed_time"], self._row_of(events, later[0], True)

    def _start(self, events: List[Dict[str, Any]], b: Bound) -> None:
        if b.mark is not None:
            k = self._mark(events, b.mark, float("-inf"))
            self.lo, self.i = events[k]["elapsed_time"], self._row_of(events, k, False)
        else:
            self.lo = self._elapsed(b)
            at, key = self._at(b)
            self.i = self._row_at(at, False, key)

    def _end(self, events: List[Dict[str, Any]], b: Bound) -> None:
        if b.mark is not None:
            k = self._mark(events, b.mark, self.lo)
            self.hi, self.j = events[k]["elapsed_time"], self._row_of(events, k, True)
        else:
            self.hi = self._elapsed(b)
            at, key = self._at(b)
            self.j = self._row_at(at, True, key)

    @staticmethod
    def _at(b: Bound) -> Tuple[float, str]:
        """The bound and the column that places it: a wall-clock bound
        against the rows' wall-clock times."""
        return (float(b.epoch), "time") if b.elapsed is None else (b.elapsed, "elapsed_time")

    def _elapsed(self, b: Bound) -> float:
        if b.elapsed is not None:
            return b.elapsed
        # Wall clock: through the recording's origin (the epoch of elapsed
        # 0), for the events (the rows are placed by their own times).
        first = self.ex.header.get("first") or {"time": 0.0, "elapsed_time": 0.0}
        return float(b.epoch) - (first["time"] - first["elapsed_time"])

    def first(self) -> Tuple[float, float]:
        """The earlier sample of the window's first row."""
        if self.i == 0:
            given = self.ex.header["first"]
            return given["time"], given["elapsed_time"]
        return (float(self.ex.column("time")[self.i - 1]),
                float(self.ex.column("elapsed_time")[self.i - 1]))

    def summary(self) -> List[Dict[str, Any]]:
        """summary --phases' phases over the window, as far as the export
        holds them: "start" and each phase whose mark is in the window;
        the figures of those wholly inside it (the trailer's), only the
        name of the others (or of every phase, without a trailer)."""
        events = self.ex.header.get("events", [])
        marks = marks_of(events)
        given = self.ex.phase_figures()
        if given is None:
            given = [{"phase": "start"}] + [{"phase": m.get("label")} for m in marks]
        opening = opening_marks(given, marks)
        bounds = [0 if at is None else self._row_of(events, self.marks[at], False)
                  for at in opening] + [self.ex.rows]
        out = []
        for n, p in enumerate(given):
            at = opening[n]
            if at is not None and not self.lo <= marks[at]["elapsed_time"] <= self.hi:
                continue
            whole = self.i <= bounds[n] and bounds[n + 1] <= self.j
            out.append(p if whole else {"phase": p.get("phase")})
        return out
