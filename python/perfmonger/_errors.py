"""The exceptions the package raises."""

from __future__ import annotations

from typing import Any, Mapping, Optional


class PerfmongerError(Exception):
    """Base class of every error this package raises."""


class ExecutableNotFound(PerfmongerError):
    """No ``perfmonger`` executable: give ``perfmonger=`` or set PERFMONGER."""


class RecorderError(PerfmongerError):
    """``perfmonger record`` failed, or ended before it should have.

    ``message`` is the recorder's one-line error from its standard error
    (``perfmonger record: error: ...``) when it wrote one; ``returncode`` is
    its exit status (1: a setup error, 2: a collection error after the
    start), or minus the signal that killed it, or None while it runs.
    """

    def __init__(self, summary: str, *, returncode: Optional[int] = None,
                 message: str = "", stderr: str = "") -> None:
        self.summary = summary
        self.returncode = returncode
        self.message = message
        self.stderr = stderr
        text = summary + (f": {message}" if message else "")
        super().__init__(text)


class IncompleteRecording(RecorderError):
    """The recorder died (e.g. SIGKILL) without closing the recording.

    Every sample flushed before is still readable, but the file has no
    ``end`` trailer.
    """


class CommandError(PerfmongerError):
    """The recorder refused a command (``"ok":false``); ``reply`` is its reply."""

    def __init__(self, command: str, reply: Mapping[str, Any]) -> None:
        self.command = command
        self.reply = dict(reply)
        self.error = str(reply.get("error", ""))
        super().__init__(f"perfmonger record refused '{command}': {self.error}")


class ReadError(PerfmongerError):
    """``perfmonger play`` or ``summary`` could not read a recording.

    ``message`` is the reader's last line on standard error.
    """

    def __init__(self, path: str, message: str, returncode: int) -> None:
        self.path = path
        self.message = message
        self.returncode = returncode
        super().__init__(f"cannot read {path}: {message}")


class DamagedRecording(UserWarning):
    """A warning: play lost lines of a damaged recording (its exit 2) and
    read() returns every line that could be read."""
