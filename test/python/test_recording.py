"""perfmonger.record: the recorder's fd contract through the package.

Samples are taken by commands (mark, sample), not by waiting, so every
test is deterministic on a busy machine; each wait has a deadline.
"""

import os
import signal
import subprocess
import sys
import threading

import pytest

import perfmonger
from conftest import PERFMONGER, play_json, run


def events(path):
    return [e for e in play_json(path, "--events") if "event" in e]


def marks(path):
    return [e["label"] for e in events(path) if e["event"] == "mark"]


def test_ready_means_the_first_sample_is_on_disk(tmp_path):
    path = tmp_path / "r.pgr"
    with perfmonger.record(path, interval="1s", perfmonger=PERFMONGER) as rec:
        assert rec.ready["event"] == "ready"
        assert rec.ready["output"] == str(path)
        assert rec.pid == rec.ready["pid"]
        os.kill(rec.pid, 0)  # alive
        lines = path.read_text().splitlines()
        assert len(lines) >= 2  # the header and the first sample, flushed
    assert rec.returncode == 0


def test_a_mark_is_on_disk_when_mark_returns(tmp_path):
    path = str(tmp_path / "m.pgr.zst")
    with perfmonger.record(path, interval="1h", perfmonger=PERFMONGER) as rec:
        for label in ("load", "query", "load"):
            reply = rec.mark(label)
            assert reply["ok"] and reply["cmd"] == "mark"
            # Read by another process while recording: already there.
            assert marks(path)[-1] == label
        assert marks(path) == ["load", "query", "load"]


def test_commands_return_their_replies(tmp_path):
    path = str(tmp_path / "c.pgr.gz")
    with perfmonger.record(path, interval="1h", perfmonger=PERFMONGER) as rec:
        before = rec.status()
        assert before["state"] == "recording" and "bytes_out" in before
        assert rec.sample()["samples"] == before["samples"] + 1
        assert rec.pause()["state"] == "paused"
        assert rec.pause()["changed"] is False
        assert rec.resume()["state"] == "recording"
        with pytest.raises(perfmonger.CommandError) as err:
            rec.command("paus")
        assert err.value.error == "unknown_command"
        assert rec.status()["ok"]  # still recording after a refusal
    kinds = [e["event"] for e in events(path)]
    assert kinds.count("pause") == 1 and kinds.count("resume") == 1


def test_leaving_the_block_stops_cleanly(tmp_path):
    path = tmp_path / "s.pgr"
    with perfmonger.record(path, interval="1h", meta={"sql": "SELECT * FROM t WHERE a=1"},
                           perfmonger=PERFMONGER) as rec:
        rec.sample()
    assert rec.returncode == 0
    assert '"event":"end"' in path.read_text().splitlines()[-1]
    summary = run([PERFMONGER, "summary", "--json", str(path)]).stdout.decode()
    assert '"sql":"SELECT * FROM t WHERE a=1"' in summary
    assert rec.stop() == rec.stop()  # once stopped, stop is a no-op


def test_an_exception_in_the_block_still_stops_the_recorder(tmp_path):
    path = tmp_path / "x.pgr"
    with pytest.raises(KeyError):
        with perfmonger.record(path, interval="1h", perfmonger=PERFMONGER) as rec:
            raise KeyError("work failed")
    assert rec.returncode == 0
    assert '"event":"end"' in path.read_text().splitlines()[-1]


@pytest.mark.parametrize("kwargs, words", [
    ({"interval": "fast"}, "interval"),
    ({"pids": [2 ** 22 + 1]}, "pid"),
    ({"args": ["--no-such-flag"]}, "no-such-flag"),
])
def test_setup_errors_raise_with_the_recorders_message(tmp_path, kwargs, words):
    path = tmp_path / "e.pgr"
    with pytest.raises(perfmonger.RecorderError) as err:
        with perfmonger.record(path, perfmonger=PERFMONGER, **kwargs):
            pytest.fail("the block ran")
    assert err.value.returncode == 1
    assert err.value.message.startswith("perfmonger record: error:")
    assert words in err.value.message
    assert err.value.message in str(err.value)
    assert not path.exists()


def test_an_unwritable_output_raises(tmp_path):
    with pytest.raises(perfmonger.RecorderError) as err:
        perfmonger.record(tmp_path / "no" / "such" / "dir.pgr", perfmonger=PERFMONGER).start()
    assert "no" in err.value.message and err.value.returncode == 1


def test_sigkill_of_the_recorder_raises(tmp_path):
    path = tmp_path / "k.pgr"
    with pytest.raises(perfmonger.IncompleteRecording) as err:
        with perfmonger.record(path, interval="1h", perfmonger=PERFMONGER) as rec:
            rec.mark("before")
            os.kill(rec.pid, signal.SIGKILL)
            with pytest.raises(perfmonger.IncompleteRecording):
                rec.mark("after")  # the recorder is gone: raises at once
    assert err.value.returncode == -signal.SIGKILL
    assert "SIGKILL" in str(err.value) and "no end trailer" in str(err.value)
    assert marks(str(path)) == ["before"]  # what was flushed is kept


def test_sigkill_seen_at_the_stop(tmp_path):
    rec = perfmonger.record(tmp_path / "k2.pgr", interval="1h", perfmonger=PERFMONGER).start()
    os.kill(rec.pid, signal.SIGKILL)
    with pytest.raises(perfmonger.IncompleteRecording):
        rec.stop()


def test_threads_share_one_recording(tmp_path):
    path = str(tmp_path / "t.pgr.zst")
    errors = []

    def work(n):
        try:
            for i in range(10):
                assert rec.mark(f"t{n}-{i}")["ok"]
        except Exception as err:  # reported below
            errors.append(err)

    with perfmonger.record(path, interval="1h", perfmonger=PERFMONGER) as rec:
        threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
    assert not errors
    got = marks(path)
    assert sorted(got) == sorted(f"t{n}-{i}" for n in range(4) for i in range(10))
    for n in range(4):  # each thread's marks in its order
        assert [m for m in got if m.startswith(f"t{n}-")] == [f"t{n}-{i}" for i in range(10)]


def open_fds():
    return {int(fd) for fd in os.listdir("/proc/self/fd")}


def test_no_fd_reaches_another_child(tmp_path):
    with perfmonger.record(tmp_path / "f.pgr", interval="1h", perfmonger=PERFMONGER) as rec:
        ours = {rec._stop_w, rec._cmd_w, rec._acks.fd}
        assert ours <= open_fds()
        # A child the harness starts (even with close_fds=False) gets none.
        out = subprocess.run([sys.executable, "-c", "import os; print(os.listdir('/proc/self/fd'))"],
                             close_fds=False, capture_output=True, timeout=60, check=True)
        child = {int(fd) for fd in eval(out.stdout)}
        assert not ours & child
        # A fork without exec closes them at once and cannot use the recording.
        pid = os.fork()
        if pid == 0:
            ok = not ours & open_fds()
            try:
                rec.mark("from-the-child")
                ok = False
            except perfmonger.PerfmongerError:
                pass
            os._exit(0 if ok else 1)
        # The child still lives (it holds nothing): the stop does not wait for it.
        _, status = os.waitpid(pid, 0)
        assert os.WEXITSTATUS(status) == 0
        rec.mark("parent")
    assert marks(str(tmp_path / "f.pgr")) == ["parent"]


def test_the_stop_does_not_wait_for_a_forked_worker(tmp_path):
    r, w = os.pipe()
    with perfmonger.record(tmp_path / "w.pgr", interval="1h", perfmonger=PERFMONGER) as rec:
        pid = os.fork()
        if pid == 0:  # a pre-fork worker that outlives the recording
            os.close(w)
            os.read(r, 1)
            os._exit(0)
        os.close(r)
    assert rec.returncode == 0  # stopped while the worker lives
    os.close(w)  # now the worker ends
    os.waitpid(pid, 0)


def test_the_executable_is_found_on_path_or_in_perfmonger(tmp_path, monkeypatch):
    monkeypatch.delenv("PERFMONGER", raising=False)
    monkeypatch.setenv("PATH", os.path.dirname(os.path.abspath(PERFMONGER)))
    assert perfmonger.find_perfmonger() == os.path.abspath(PERFMONGER)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(perfmonger.ExecutableNotFound):
        perfmonger.record(tmp_path / "n.pgr")
    monkeypatch.setenv("PERFMONGER", os.path.abspath(PERFMONGER))
    assert perfmonger.find_perfmonger() == os.path.abspath(PERFMONGER)
    with pytest.raises(perfmonger.ExecutableNotFound):
        perfmonger.find_perfmonger(str(tmp_path / "nothing"))


def test_bad_labels_are_refused_before_sending(tmp_path):
    with perfmonger.record(tmp_path / "b.pgr", interval="1h", perfmonger=PERFMONGER) as rec:
        for label in ("", "a\nstop", "é"):
            with pytest.raises(ValueError):
                rec.mark(label)
        with pytest.raises(perfmonger.CommandError) as err:
            rec.mark("x" * 129)
        assert err.value.error == "bad_argument"
    assert marks(str(tmp_path / "b.pgr")) == []
