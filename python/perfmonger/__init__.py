"""PerfMonger from Python: record this machine around your code, and read
recordings into pandas or numpy.

    import perfmonger

    with perfmonger.record("run.pgr.zst", interval="10ms", meta={"run": 7}) as rec:
        load()
        rec.mark("query")
        query()

    frame = perfmonger.read("run.pgr.zst", columns=["cpu.all.*", "disk.*.riops"])
    frame.attrs["phases"]        # one row per phase, with summary figures

    perfmonger.export("run.pgr.zst", "run.columns")   # once
    frame = perfmonger.read("run.columns")             # mapped: no parsing

Recording needs only the standard library and the ``perfmonger`` binary
(on PATH, $PERFMONGER, or ``perfmonger=``); reading needs numpy, and
pandas for a DataFrame. The pytest plugin: ``pytest -p
perfmonger.pytest_plugin --perfmonger=run.pgr.zst``. See docs/python.md.
"""

from ._errors import (CommandError, DamagedRecording, ExecutableNotFound, IncompleteRecording,
                      PerfmongerError, ReadError, RecorderError)
from ._executable import find_perfmonger
from .exported import export
from .reading import Columns, read
from .recording import Recording, record

__all__ = [
    "record", "Recording", "read", "export", "Columns", "find_perfmonger",
    "PerfmongerError", "RecorderError", "IncompleteRecording", "CommandError",
    "ReadError", "ExecutableNotFound", "DamagedRecording",
]
