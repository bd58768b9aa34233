"""Driving ``perfmonger record`` from Python through its fd contract.

The recorder is started with four pipes (docs/embedding.md,
perfmonger-record(1)): ``--ready-fd`` (one JSON line once the first sample
is on disk), ``--stop-fd`` (EOF stops it: the fallback should this process
die), ``--cmd-fd`` and ``--ack-fd`` (one command per line, one JSON reply
per command, written only once the command's effect is on disk).

The pipes are passed with subprocess's ``pass_fds``; every other fd of
this process stays out of the recorder, and this process' ends are
close-on-exec, so no other child inherits them. A ``fork()`` without exec
(multiprocessing's default on Linux) closes them in the child at once, so
the child holds no copy of the stop pipe that would delay a stop. Every
method is thread-safe: one lock per recording orders commands and replies.
"""

from __future__ import annotations

import datetime
import json
import os
import select
import signal
import subprocess
import tempfile
import threading
import time
import urllib.parse
import weakref
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from ._errors import CommandError, IncompleteRecording, PerfmongerError, RecorderError
from ._executable import find_perfmonger

Interval = Union[str, float, int, datetime.timedelta]
Reply = Dict[str, Any]

__all__ = ["Recording", "record"]

_live: "weakref.WeakSet[Recording]" = weakref.WeakSet()


def _forget_in_child() -> None:
    """After fork() in the child: the recordings are the parent's."""
    for rec in list(_live):
        rec._forget_after_fork()


os.register_at_fork(after_in_child=_forget_in_child)


def _interval_text(interval: Interval) -> str:
    if isinstance(interval, datetime.timedelta):
        interval = interval.total_seconds()
    if isinstance(interval, (int, float)):
        if interval <= 0:
            raise ValueError(f"interval {interval!r}: give a positive number of seconds")
        return repr(float(interval))
    return str(interval)


def _meta_args(meta: Optional[Mapping[str, Any]]) -> List[str]:
    args: List[str] = []
    for key, value in (meta or {}).items():
        k = urllib.parse.quote(str(key), safe="")
        v = urllib.parse.quote(str(value), safe="")
        args += ["--meta", f"{k}={v}"]
    return args


def _pipe() -> tuple:
    return os.pipe2(os.O_CLOEXEC)


class _LineReader:
    """Lines from a pipe, each within a deadline."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buf = b""

    def line(self, deadline: float) -> Optional[bytes]:
        """The next line (without its newline); None at EOF. Raises
        TimeoutError when the deadline passes first."""
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            poller = select.poll()
            poller.register(self.fd, select.POLLIN)
            if not poller.poll(left * 1000):
                continue
            chunk = os.read(self.fd, 65536)
            if not chunk:
                if self.buf:  # a last line without its newline
                    line, self.buf = self.buf, b""
                    return line
                return None
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line


class Recording:
    """One ``perfmonger record`` run, driven through its command fds.

    Use it as a context manager (``with perfmonger.record(...) as rec``) or
    call :meth:`start` and :meth:`stop`. Each command method returns the
    recorder's reply, parsed, once the recorder has acknowledged it: the
    command's effect (a mark, a sample, a pause) is on disk by then.

    ``perfmonger`` is the executable run. Attributes after :meth:`start`: ``ready`` (the ready line as a dict:
    ``pid``, ``output``, ``start_time``, ...), ``pid``, ``path`` (the
    absolute output path). After :meth:`stop`: ``returncode`` (0).
    """

    def __init__(self, path: Union[str, os.PathLike], *, interval: Optional[Interval] = None,
                 meta: Optional[Mapping[str, Any]] = None, pids: Iterable[int] = (),
                 args: Sequence[str] = (), perfmonger: Optional[str] = None,
                 timeout: float = 60.0) -> None:
        self.path = os.fspath(path)
        self.timeout = timeout
        self.perfmonger = find_perfmonger(perfmonger)  # the executable
        self._argv = [self.perfmonger, "record", "-l", self.path]
        if interval is not None:
            self._argv += ["-i", _interval_text(interval)]
        self._argv += _meta_args(meta)
        for pid in pids:
            self._argv += ["--pid", str(int(pid))]
        self._argv += list(args)
        self._lock = threading.Lock()
        self._proc: Optional[subprocess.Popen] = None
        self._stderr: Optional[Any] = None
        self._stop_w = self._cmd_w = -1
        self._acks: Optional[_LineReader] = None
        self._seq = 0
        self._state = "new"  # new, running, stopped, failed, inherited
        self.ready: Reply = {}
        self.pid: Optional[int] = None
        self.returncode: Optional[int] = None
        self._stop_reply: Reply = {}
        self._failure: Optional[RecorderError] = None

    # ---- start and stop ------------------------------------------------

    def start(self) -> "Recording":
        """Starts the recorder and returns once its first sample is on disk.
        Raises RecorderError with the recorder's message if it fails."""
        with self._lock:
            if self._state != "new":
                raise PerfmongerError("a Recording starts once")
            self._spawn()
            _live.add(self)
        return self

    def _spawn(self) -> None:
        ready_r, ready_w = _pipe()
        stop_r, self._stop_w = _pipe()
        cmd_r, self._cmd_w = _pipe()
        ack_r, ack_w = _pipe()
        child_fds = (ready_w, stop_r, cmd_r, ack_w)
        argv = self._argv + ["--ready-fd", str(ready_w), "--stop-fd", str(stop_r),
                             "--cmd-fd", str(cmd_r), "--ack-fd", str(ack_w)]
        self._stderr = tempfile.TemporaryFile()
        try:
            self._proc = subprocess.Popen(argv, pass_fds=child_fds, stdin=subprocess.DEVNULL,
                                          stdout=subprocess.DEVNULL, stderr=self._stderr)
        except BaseException:
            for fd in child_fds + (ready_r, self._stop_w, self._cmd_w, ack_r):
                os.close(fd)
            self._state = "failed"
            raise
        finally:
            for fd in child_fds:
                if self._proc is not None:
                    os.close(fd)
        self.pid = self._proc.pid
        self._acks = _LineReader(ack_r)
        self._state = "running"
        try:
            line = _LineReader(ready_r).line(time.monotonic() + self.timeout)
        except TimeoutError:
            line = None
            self._fail(f"perfmonger record wrote no ready line within {self.timeout:g} s", kill=True)
        finally:
            os.close(ready_r)
        if line is None:
            self._fail("perfmonger record failed before it was ready")
        self.ready = json.loads(line)
        self.path = self.ready.get("output", self.path)

    def stop(self) -> Reply:
        """Stops the recorder (the ``stop`` command, EOF on the stop fd as
        the fallback), waits for it to exit and returns the stop reply.
        Raises RecorderError (IncompleteRecording when it was killed) if
        the recording is not complete."""
        with self._lock:
            if self._state == "stopped":
                return self._stop_reply
            self._check_running()
            try:
                reply = self._command_locked("stop") or {}
            finally:
                self._close_fds()
            self._wait_exit()  # a recorder that exited 0 by itself is complete too
            self._stop_reply = reply
            return reply

    def _wait_exit(self) -> None:
        assert self._proc is not None
        try:
            rc = self._proc.wait(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self._fail(f"perfmonger record did not exit within {self.timeout:g} s of the stop",
                       kill=True)
        self.returncode = rc
        if rc != 0:
            self._fail("perfmonger record failed")
        self._state = "stopped"
        _live.discard(self)

    def _fail(self, summary: str, kill: bool = False) -> None:
        """Ends the recorder if needed and raises the error its exit means."""
        self._close_fds()
        assert self._proc is not None
        if kill and self._proc.poll() is None:
            self._proc.kill()
        try:
            rc = self._proc.wait(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            rc = self._proc.wait()
        self.returncode = rc
        self._state = "failed"
        _live.discard(self)
        stderr = self._read_stderr()
        message = _last_message(stderr)
        if rc < 0:
            name = signal.Signals(-rc).name
            self._failure = IncompleteRecording(
                f"perfmonger record was killed by {name}: {self.path} has no end trailer",
                returncode=rc, message=message, stderr=stderr)
        elif rc == 0 and not kill:
            self._failure = RecorderError(f"{summary}: it had stopped (exit 0)", returncode=rc,
                                          message=message, stderr=stderr)
        else:
            self._failure = RecorderError(f"{summary} (exit {rc})", returncode=rc,
                                          message=message, stderr=stderr)
        raise self._failure

    def _read_stderr(self) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0)
        text = self._stderr.read().decode("utf-8", "replace")
        self._stderr.close()
        self._stderr = None
        return text

    def _close_fds(self) -> None:
        for name in ("_stop_w", "_cmd_w"):
            fd = getattr(self, name)
            if fd >= 0:
                os.close(fd)
                setattr(self, name, -1)
        if self._acks is not None:
            os.close(self._acks.fd)
            self._acks = None

    def _forget_after_fork(self) -> None:
        self._lock = threading.Lock()  # another thread may have held it
        self._close_fds()
        if self._state == "running":
            self._state = "inherited"
        self._proc = None

    def _check_running(self) -> None:
        if self._state == "inherited":
            raise PerfmongerError("this recording belongs to the process that started it "
                                  "(this one is a fork of it)")
        if self._state == "failed" and self._failure is not None:
            raise self._failure  # every later call says why
        if self._state != "running":
            raise PerfmongerError(f"the recording is {self._state}, not running")

    # ---- commands -------------------------------------------------------

    def mark(self, label: str) -> Reply:
        """A sample now and a ``mark`` event with ``label`` (1-128 printable
        ASCII bytes): the phase ``label`` starts here."""
        if not label or not all(" " <= c <= "~" for c in label):
            raise ValueError(f"mark label {label!r}: give 1-128 printable ASCII characters")
        return self.command("mark", label)

    def pause(self) -> Reply:
        """A closing sample, then no sampling until :meth:`resume`."""
        return self.command("pause")

    def resume(self) -> Reply:
        """Sampling again, from a fresh baseline sample."""
        return self.command("resume")

    def sample(self) -> Reply:
        """One extra sample now (none while paused)."""
        return self.command("sample")

    def status(self) -> Reply:
        """The state, sample count, missed ticks and bytes written."""
        return self.command("status")

    def command(self, verb: str, argument: Optional[str] = None) -> Reply:
        """Sends one command line and returns its reply once acknowledged.
        Raises CommandError when the recorder refuses it, RecorderError
        when the recorder is gone."""
        with self._lock:
            self._check_running()
            reply = self._command_locked(verb, argument)
            if reply is None:
                self._fail(f"perfmonger record ended before acknowledging '{verb}'")
            return reply

    def _command_locked(self, verb: str, argument: Optional[str] = None) -> Optional[Reply]:
        """The reply; None when the recorder is gone (EOF, EPIPE)."""
        line = verb if argument is None else f"{verb} {argument}"
        if "\n" in line or "\r" in line:
            raise ValueError("a command is one line")
        self._seq += 1
        try:
            os.write(self._cmd_w, (line + "\n").encode())
            raw = self._acks.line(time.monotonic() + self.timeout) if self._acks else None
        except BrokenPipeError:
            return None
        except TimeoutError:
            self._fail(f"perfmonger record did not acknowledge '{line}' within "
                       f"{self.timeout:g} s", kill=True)
        if raw is None:
            return None
        reply = json.loads(raw)
        if reply.get("seq") != self._seq:
            raise PerfmongerError(f"reply {raw!r} is not to command {self._seq} '{line}'")
        if not reply.get("ok"):
            raise CommandError(line, reply)
        return reply

    # ---- context manager ------------------------------------------------

    def __enter__(self) -> "Recording":
        if self._state == "new":
            self.start()
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        if exc is None:
            self.stop()
            return False
        try:
            self.stop()
        except PerfmongerError as err:
            if hasattr(exc, "add_note"):
                exc.add_note(f"and stopping the recording failed: {err}")
        return False

    def __del__(self) -> None:
        # Closing the stop pipe's write end stops an abandoned recorder.
        try:
            self._close_fds()
        except Exception:
            pass


def _last_message(stderr: str) -> str:
    """The recorder's one-line error, else its last line."""
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    for ln in reversed(lines):
        if ": error:" in ln:
            return ln
    return lines[-1] if lines else ""


def record(path: Union[str, os.PathLike], *, interval: Optional[Interval] = None,
           meta: Optional[Mapping[str, Any]] = None, pids: Iterable[int] = (),
           args: Sequence[str] = (), perfmonger: Optional[str] = None,
           timeout: float = 60.0) -> Recording:
    """A recording of this machine to ``path`` (``.gz``, ``.zst`` or plain
    by its suffix), to use in a ``with`` block::

        with perfmonger.record("run.pgr.zst", interval="10ms",
                               meta={"run": 7}, pids=[server.pid]) as rec:
            load()
            rec.mark("query")
            query()

    ``interval``: a duration (``"10ms"``, ``"1s"``) or seconds (0.01);
    ``meta``: key/value pairs stored in the header (any text: it is
    percent-encoded for the command line); ``pids``: processes to record
    too (``--pid``); ``args``: more ``perfmonger record`` options (e.g.
    ``["--record-intr"]``); ``perfmonger``: the executable (default
    $PERFMONGER, else ``perfmonger`` on PATH); ``timeout``: seconds to wait
    for the ready line, each reply and the exit.

    Entering the block returns once the first sample is on disk; leaving
    it stops the recorder and raises RecorderError if the recording is not
    complete (IncompleteRecording if the recorder was killed).
    """
    return Recording(path, interval=interval, meta=meta, pids=pids, args=args,
                     perfmonger=perfmonger, timeout=timeout)
