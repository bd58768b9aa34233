"""Reading recordings (or their columns exports: exported.py) into numpy
arrays or a pandas DataFrame.

``perfmonger play --format columns`` hands over play's rates as binary
float64 columns behind a one-line JSON header (perfmonger-play(1), FORMAT
COLUMNS), written to an unnamed file in $TMPDIR and mapped with
numpy.memmap (no text is parsed, no pipe crossed, nothing copied), and
the DataFrame is built on that mapping. ``summary --phases --json`` runs
beside it for the phases' figures.
"""

from __future__ import annotations

import datetime
import fnmatch
import json
import os
import subprocess
import tempfile
import warnings
from typing import Any, Dict, IO, Iterable, List, Optional, Sequence, Tuple, Union

from . import exported
from ._errors import DamagedRecording, ReadError
from ._executable import find_perfmonger
from ._phases import phases as _phases

# Imported on the first read(): recording needs neither, and importing
# pandas takes most of a second.
np: Any = None
pd: Any = None


def _import(want_pandas: bool) -> bool:
    """Imports numpy (required: ImportError naming the package) and, when
    wanted, pandas (optional); True when pandas is there."""
    global np, pd
    if np is None:
        try:
            import numpy
        except ImportError as err:
            raise ImportError("perfmonger.read needs numpy (Debian: python3-numpy)") from err
        np = numpy
    if pd is None and want_pandas:
        try:
            import pandas
        except ImportError:
            return False
        pd = pandas
    return pd is not None

PathLike = Union[str, "os.PathLike[str]"]
When = Union[str, float, int, datetime.datetime, datetime.timedelta]

__all__ = ["read", "Columns"]

_FORMAT = "perfmonger-columns"


class Columns(dict):
    """What :func:`read` returns without pandas (or with ``as_dict=True``):
    column name -> 1-D float64 numpy array (``time`` in epoch seconds
    first), with the recording's ``marks`` (a list of dicts: label, time,
    elapsed_time), ``phases`` (a list of dicts: phase, start, end,
    start_elapsed, end_elapsed and summary --phases' figures), ``meta``
    (dict), ``events`` (play --events' lines), ``host`` and ``files`` as
    attributes."""

    marks: List[Dict[str, Any]]
    phases: List[Dict[str, Any]]
    meta: Dict[str, str]
    events: List[Dict[str, Any]]
    host: str
    files: List[str]


def _when(flag: str, value: When) -> List[str]:
    if isinstance(value, datetime.timedelta):
        value = value.total_seconds()
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.astimezone()  # naive: local time, as Python means it
        text = value.isoformat()
    elif isinstance(value, (int, float)):
        text = repr(float(value))
    else:
        text = str(value)
    return [flag, text]


def _window_args(start: Optional[When], end: Optional[When], phase: Optional[str]) -> List[str]:
    args: List[str] = []
    if start is not None:
        args += _when("--from", start)
    if end is not None:
        args += _when("--to", end)
    if phase is not None:
        args += ["--phase", phase]
    return args


def _selected(names: Sequence[str], columns: Optional[Iterable[str]]) -> List[int]:
    """Indices of the data columns wanted (never `time`, the index)."""
    if columns is None:
        return [i for i, n in enumerate(names) if n != "time"]
    globs = [columns] if isinstance(columns, str) else list(columns)
    return [i for i, n in enumerate(names)
            if n != "time" and any(fnmatch.fnmatchcase(n, g) for g in globs)]


def _last_line(f: IO[bytes]) -> str:
    f.seek(0)
    lines = [ln for ln in f.read().decode("utf-8", "replace").splitlines() if ln.strip()]
    errors = [ln for ln in lines if ": error:" in ln]
    return (errors or lines or ["(no message)"])[-1]


def _read_columns(path: str, fd: int, offset: int, rows: int, keep: List[int],
                  i: int, j: int) -> Any:
    """Rows [i, j) of the columns `keep` of a columns layout at `offset`
    in `fd`, read into one new (len(keep), j - i) array (read, not copied
    out of a map: the map's pages would count in memory beside the copy)."""
    out = np.empty((len(keep), j - i), dtype="<f8")
    for n, c in enumerate(keep):
        view = memoryview(out[n]).cast("B")
        at = offset + (c * rows + i) * 8
        done = 0
        while done < len(view):
            got = os.preadv(fd, [view[done:]], at + done)
            if got <= 0:
                raise ReadError(path, "the columns end early", 0)
            done += got
    return out


class _Play:
    """One `play --format columns` run into an unnamed file in $TMPDIR:
    its header, then its arrays mapped from the file in place."""

    def __init__(self, exe: str, path: str, window: List[str]) -> None:
        self.path = path
        self.stderr = tempfile.TemporaryFile()
        self.out = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([exe, "play", "--format", "columns", *window, path],
                                     stdin=subprocess.DEVNULL, stdout=self.out,
                                     stderr=self.stderr)
        self.rc: Optional[int] = None
        self.offset = 0

    def header(self) -> Optional[Dict[str, Any]]:
        """Waits for play (it writes the header after the whole walk)."""
        self.rc = self.proc.wait()
        self.out.seek(0)
        line = self.out.readline()
        if not line or not line.endswith(b"\n"):
            return None
        header = json.loads(line)
        if header.get("format") != _FORMAT or header.get("dtype") != "<f8":
            raise ReadError(self.path, f"unknown columns header {line[:200]!r}", 0)
        self.offset = len(line)
        return header

    def arrays(self, header: Dict[str, Any], keep: List[int]) -> Tuple[Any, Any]:
        """(time, data): data is one (len(keep), rows) float64 array, column
        `keep[j]` in row j. The file is mapped copy-on-write: the arrays are
        its pages (read on first touch, never copied) when `keep` is a run
        of consecutive columns, else the kept columns are read into one
        new array (read, not copied out of the map: the map's pages would
        count in memory beside the copy)."""
        rows, width = int(header["rows"]), len(header["columns"])
        if rows * width * 8 + self.offset > os.fstat(self.out.fileno()).st_size:
            self.finish()
            raise ReadError(self.path, "play --format columns ended early", 0)
        if rows == 0 or width == 0:
            return np.zeros(rows), np.zeros((len(keep), rows))
        # asarray: plain ndarray views of the map (numpy's memmap subclass
        # would leak into every result computed from them).
        mapped = np.asarray(np.memmap(self.out, dtype="<f8", mode="c", offset=self.offset,
                                      shape=(width, rows)))
        time = mapped[header["columns"].index("time")]
        if keep and keep == list(range(keep[0], keep[0] + len(keep))):
            return time, mapped[keep[0]:keep[0] + len(keep)]
        return time, _read_columns(self.path, self.out.fileno(), self.offset, rows, keep, 0, rows)

    def finish(self, complete: bool = False) -> None:
        """Waits for play. Its failure raises ReadError, except exit 2 after
        a complete output (`complete`: the header came, which play writes
        after the whole walk): lines lost to damage, said as a warning."""
        rc = self.proc.wait()
        self.out.close()  # a mapping keeps its pages
        self.stderr.seek(0)
        text = self.stderr.read().decode("utf-8", "replace")
        message = _last_line(self.stderr)
        self.stderr.close()
        if rc == 2 and complete:
            lost = [ln for ln in text.splitlines() if ln.startswith("warning:") and " lost " in ln]
            warnings.warn(DamagedRecording("; ".join(lost) or message), stacklevel=4)
        elif rc != 0:
            raise ReadError(self.path, message, rc)


class _File:
    """Everything read from one recording."""

    def __init__(self, path: str, time: Any, names: List[str], data: Any,
                 header: Dict[str, Any], phases: List[Dict[str, Any]]) -> None:
        self.path = path
        self.time = time
        self.names = names
        self.data = data
        self.meta: Dict[str, str] = header.get("meta", {})
        self.host: str = header.get("host", "")
        self.events: List[Dict[str, Any]] = header.get("events", [])
        self.marks = [{"label": e["label"], "time": e["time"], "elapsed_time": e["elapsed_time"]}
                      for e in self.events if e.get("event") == "mark"]
        self.phases = phases


def _read_file(exe: str, path: str, window: List[str], columns: Optional[Iterable[str]],
               with_phases: bool) -> _File:
    summary_out = tempfile.TemporaryFile() if with_phases else None
    summary = None
    if summary_out is not None:
        summary = subprocess.Popen([exe, "summary", "--phases", "--json", *window, path],
                                   stdin=subprocess.DEVNULL, stdout=summary_out,
                                   stderr=subprocess.DEVNULL)
    play = _Play(exe, path, window)
    try:
        header = play.header()
        complete = header is not None  # play writes it after the whole walk
        if header is None:
            header = {"rows": 0, "columns": []}
        names = list(header["columns"])
        keep = _selected(names, columns)
        # elapsed_time places the phases: read last when not wanted.
        at = names.index("elapsed_time") if "elapsed_time" in names else None
        extra = [at] if at is not None and at not in keep else []
        if header["rows"] > 0 or names:
            time, read = play.arrays(header, keep + extra)
        else:
            time, read = np.zeros(0), np.zeros((len(keep), 0))
        play.finish(complete)
        data = read[:len(keep)]  # a view: the rows kept
        elapsed = read[(keep + extra).index(at)] if at is not None else None
    finally:
        if play.proc.poll() is None:
            play.proc.kill()
            play.proc.wait()
    phases: List[Dict[str, Any]] = []
    if summary is not None and summary_out is not None:
        if summary.wait() == 0 and len(time) > 0:
            summary_out.seek(0)
            # The first row's earlier sample: a window's start (its
            # elapsed time the recording's); play before "first", the origin.
            given = header.get("first")
            first = ((given["time"], given["elapsed_time"]) if given is not None else
                     (float(time[0]) - (float(elapsed[0]) if elapsed is not None else 0.0), 0.0))
            last = (float(time[-1]), float(elapsed[-1]) if elapsed is not None else float("nan"))
            phases = _phases(json.load(summary_out), header.get("events", []), first, last)
        summary_out.close()
    return _File(path, time, [names[c] for c in keep], data, header, phases)


def _read_export(path: str, start: Optional[When], end: Optional[When], phase: Optional[str],
                 columns: Optional[Iterable[str]], with_phases: bool) -> _File:
    """An export (exported.py): its window's rows, mapped in place when the
    columns kept are consecutive."""
    ex = exported.Export(path, np)
    sel = exported.Selection(ex, np, start, end, phase)
    header = dict(ex.header, events=sel.events)
    if sel.i == sel.j:
        return _File(path, np.zeros(0), [], np.zeros((0, 0)), header, [])
    keep = _selected(ex.names, columns)
    time = ex.column("time")[sel.i:sel.j]
    if keep and keep == list(range(keep[0], keep[0] + len(keep))):
        data = ex.mapped[keep[0]:keep[0] + len(keep), sel.i:sel.j]
    else:
        with open(path, "rb") as f:
            data = _read_columns(path, f.fileno(), ex.offset, ex.rows, keep, sel.i, sel.j)
    phases: List[Dict[str, Any]] = []
    if with_phases:
        last = (float(time[-1]), float(ex.column("elapsed_time")[sel.j - 1]))
        phases = _phases(sel.summary(), sel.events, sel.first(), last)
    return _File(path, time, [ex.names[c] for c in keep], data, header, phases)


def _to_columns(files: List[_File]) -> Columns:
    out = Columns()
    names: List[str] = []
    for f in files:
        names += [n for n in f.names if n not in names]
    if len(files) == 1:
        f = files[0]
        out["time"] = f.time
        out.update({n: f.data[j] for j, n in enumerate(f.names)})
    else:
        out["time"] = np.concatenate([f.time for f in files])
        for n in names:
            parts = [f.data[f.names.index(n)] if n in f.names else np.full(len(f.time), np.nan)
                     for f in files]
            out[n] = np.concatenate(parts)
    out.marks = [dict(m, file=f.path) for f in files for m in f.marks]
    out.phases = [dict(p, file=f.path) for f in files for p in f.phases]
    out.meta = dict(files[0].meta) if files else {}
    out.events = [dict(e, file=f.path) for f in files for e in f.events]
    out.host = files[0].host if files else ""
    out.files = [f.path for f in files]
    return out


def _ns(seconds: Any) -> Any:
    """Epoch seconds (play's, to the millisecond) as int64 nanoseconds:
    a double holds the millisecond exactly, not the nanosecond."""
    return np.round(np.asarray(seconds, dtype=float) * 1e3).astype("int64") * 1_000_000


def _time_index(seconds: Any) -> Any:
    # The nanoseconds viewed as datetime64 and then called UTC: 0.003 s of
    # CPU for an hour at 10 ms, to_datetime(unit="ns", utc=True) 0.04 s.
    return pd.DatetimeIndex(_ns(seconds).view("M8[ns]"), name="time").tz_localize("UTC")


def _frame_of(f: _File) -> Any:
    # data is (columns, rows): its transpose is a Fortran-ordered view, which
    # pandas keeps as its one block without copying.
    return pd.DataFrame(f.data.T, index=_time_index(f.time), columns=f.names, copy=False)


def _table(rows: List[Dict[str, Any]], first: Sequence[str], times: Sequence[str]) -> Any:
    frame = pd.DataFrame(rows, columns=None if rows else list(first))
    for t in times:
        if t in frame:
            frame[t] = pd.to_datetime(_ns(frame[t].to_numpy(dtype=float)), unit="ns", utc=True)
    return frame


def _to_frame(files: List[_File]) -> Any:
    if len(files) == 1:
        frame = _frame_of(files[0])
    else:
        frame = pd.concat([_frame_of(f) for f in files])
    marks = [dict(m, file=f.path) for f in files for m in f.marks]
    phases = [dict(p, file=f.path) for f in files for p in f.phases]
    frame.attrs["marks"] = _table(marks, ["label", "time", "elapsed_time", "file"], ["time"])
    frame.attrs["phases"] = _table(phases, ["phase", "start", "end", "start_elapsed",
                                            "end_elapsed", "file"], ["start", "end"])
    frame.attrs["meta"] = dict(files[0].meta) if files else {}
    frame.attrs["events"] = [dict(e, file=f.path) for f in files for e in f.events]
    frame.attrs["host"] = files[0].host if files else ""
    frame.attrs["files"] = [f.path for f in files]
    return frame


def read(paths: Union[PathLike, Sequence[PathLike]], columns: Optional[Iterable[str]] = None,
         start: Optional[When] = None, end: Optional[When] = None, phase: Optional[str] = None,
         *, as_dict: bool = False, phases: bool = True, perfmonger: Optional[str] = None) -> Any:
    """Reads one recording (or several, one after the other) as play's rates.

    A path may also be a columns export (:func:`perfmonger.export`, known
    by its first bytes): it is mapped, with no process and no parsing, and
    reads as the recording it was made from (docs/python.md, Exports).

    Returns a ``pandas.DataFrame`` indexed by ``time`` (UTC timestamps of
    each line's later sample), one float64 column per play CSV column
    (``elapsed_time``, ``cpu.all.usr``, ``disk.sda.riops``, ...: JSON paths),
    NaN where play has null or no value. ``frame.attrs`` holds ``marks``
    (a frame: label, time, elapsed_time, file), ``phases`` (a frame: phase,
    start, end, start_elapsed, end_elapsed, then summary --phases' figures
    named as the columns, e.g. ``cpu.all.usr``), ``meta`` (dict),
    ``events``, ``host`` and ``files``. Without pandas, or with
    ``as_dict=True``, returns a :class:`Columns` dict of numpy arrays.

    ``columns``: globs of the columns wanted (``["cpu.all.*",
    "disk.*.riops"]``; ``*`` matches dots too); the others are not kept.
    ``start``, ``end``: the window, as play's --from/--to take it: elapsed
    seconds (a number or timedelta), a datetime, or text (``"1m30s"``,
    ``"mark:load"``, RFC 3339). ``phase``: the phase a mark opens (--phase).
    ``phases=False`` skips summary --phases. ``perfmonger``: the executable
    (default $PERFMONGER, else ``perfmonger`` on PATH).

    Raises ReadError with the reader's message when a file cannot be read.
    """
    have_pandas = _import(want_pandas=not as_dict)
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    # An export is mapped: no process runs, no executable is needed.
    exe = "" if all(map(exported.is_export, paths)) else find_perfmonger(perfmonger)
    window = _window_args(start, end, phase)
    files = [_read_export(p, start, end, phase, columns, phases) if exported.is_export(p) else
             _read_file(exe, p, window, columns, phases) for p in paths]
    if as_dict or not have_pandas:
        return _to_columns(files)
    return _to_frame(files)
