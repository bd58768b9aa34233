"""perfmonger.read against play's JSON, value for value, and the binary
layout of `play --format columns` it reads."""

import json
import math
import os
import pty
import subprocess
import sys
import tempfile

import pytest

import perfmonger
from conftest import PERFMONGER, cell, flatten, legacy, play_json, run

np = pytest.importorskip("numpy", reason="python3-numpy is not installed")
pd = pytest.importorskip("pandas", reason="python3-pandas is not installed")


def make_recording(path, version):
    """Samples taken by commands (no waiting): 5, mark a, 5, mark b, 5, a
    pause and a resume in b, with a child process recorded that exits in
    phase a (its cells null from then on)."""
    child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                             stdin=subprocess.PIPE)
    with perfmonger.record(path, interval="1h", pids=[child.pid], meta={"run": "r 1"},
                           args=["--format-version", str(version)],
                           perfmonger=PERFMONGER) as rec:
        for _ in range(5):
            rec.sample()
        rec.mark("a")
        rec.sample()
        child.stdin.close()
        child.wait(timeout=60)
        for _ in range(4):
            rec.sample()
        rec.mark("b")
        for _ in range(3):
            rec.sample()
        rec.pause()
        rec.resume()
        for _ in range(3):
            rec.sample()
    return str(path)


RECORDINGS = [("v1.pgr.gz", 1), ("v2.pgr.zst", 2), ("v1.pgr.zst", 1), ("v2.pgr.gz", 2)]


@pytest.fixture(scope="module")
def recordings(tmp_path_factory):
    d = tmp_path_factory.mktemp("rec")
    return {name: make_recording(d / name, v) for name, v in RECORDINGS}


def same(got, want):
    if want is None:
        return math.isnan(got)
    return got == want


def check_equals_play(path, *window, **read_window):
    lines = play_json(path, *window)
    frame = perfmonger.read(path, **read_window)
    assert len(frame) == len(lines)
    if not lines:
        return frame
    csv = run([PERFMONGER, "play", "--format", "csv", *window, path]).stdout.decode()
    want_cols = csv.split("\r\n", 1)[0].split(",")[1:]  # play's CSV columns, less time
    assert list(frame.columns) == want_cols
    times = frame.index.asi8
    for i, line in enumerate(lines):
        want = flatten(line)
        assert times[i] == round(want["time"] * 1000) * 1_000_000  # ms, as play
        row = frame.iloc[i]
        bad = {c: (row[c], cell(want, c)) for c in want_cols if not same(row[c], cell(want, c))}
        assert not bad, f"line {i}: {bad}"
    return frame


@pytest.mark.parametrize("name", [n for n, _ in RECORDINGS])
def test_read_equals_play_json(recordings, name):
    frame = check_equals_play(recordings[name])
    assert len(frame) >= 17
    assert frame.attrs["meta"] == {"run": "r 1"}
    assert list(frame.attrs["marks"]["label"]) == ["a", "b"]
    # A recorded process that exited: NaN, as play's null.
    proc_cols = [c for c in frame.columns if c.startswith("procs.") and c.endswith(".cpu")]
    assert proc_cols and frame[proc_cols[0]].isna().any() and frame[proc_cols[0]].notna().any()


@pytest.mark.parametrize("name", ["busy100.pgr.gz", "small-all.pgr.gz", "busy100.pgr"])
def test_read_equals_play_json_on_perfmonger_1_0_recordings(name):
    check_equals_play(legacy(name))


def test_windows_equal_plays(recordings):
    path = recordings["v2.pgr.zst"]
    check_equals_play(path, "--phase", "a", phase="a")
    check_equals_play(path, "--from", "mark:a", "--to", "mark:b", start="mark:a", end="mark:b")
    whole = perfmonger.read(path)
    cut = whole["elapsed_time"].iloc[len(whole) // 2]
    frame = check_equals_play(path, "--from", repr(cut), start=float(cut))
    assert 0 < len(frame) < len(whole)
    # The window's elapsed times are the recording's; its first phase
    # starts at its first sample, not at the recording's start.
    assert list(frame["elapsed_time"]) == list(whole["elapsed_time"].iloc[-len(frame):])
    first = frame.attrs["phases"].iloc[0]
    assert first["phase"] == "start"
    assert 0 < first["start_elapsed"] <= frame["elapsed_time"].iloc[0]


def test_phases_carry_summarys_figures(recordings):
    path = recordings["v1.pgr.gz"]
    frame = perfmonger.read(path)
    phases = frame.attrs["phases"]
    assert list(phases["phase"]) == ["start", "a", "b"]
    marks = frame.attrs["marks"]
    assert list(phases["start"][1:]) == list(marks["time"])
    assert list(phases["end"][:-1]) == list(phases["start"][1:])
    assert phases["end"].iloc[-1] == frame.index[-1]
    assert (phases["end"] >= phases["start"]).all()
    # Each phase spans its summary's exectime and its paused time (phase b
    # holds a pause: as long as the machine takes to answer two commands),
    # whichever columns are read.
    narrow = perfmonger.read(path, columns=["cpu.all.usr"]).attrs["phases"]
    assert narrow[["phase", "start", "end"]].equals(phases[["phase", "start", "end"]])
    spans = (phases["end"] - phases["start"]).dt.total_seconds()
    timed = phases["exectime"] + phases["paused_time"].fillna(0)
    assert ((spans - timed).abs() < 0.0015).all(), (list(spans), list(timed))
    summary = json.loads(run([PERFMONGER, "summary", "--phases", "--json", path]).stdout)
    for (_, row), want in zip(phases.iterrows(), summary):
        for key in ("exectime", "cpu.all.usr", "disk.total.riops", "mem.mem_used"):
            got, wanted = row[key], flatten(want)[key]
            # A phase in which no CPU time was measured: null there, NaN here.
            assert got == wanted or (wanted is None and math.isnan(got)), (key, got, wanted)


def test_columns_are_chosen_by_glob(recordings):
    path = recordings["v2.pgr.zst"]
    frame = perfmonger.read(path, columns=["cpu.all.*", "disk.*.riops"], phases=False)
    assert list(frame.columns) == [c for c in perfmonger.read(path).columns
                                   if c.startswith("cpu.all.") or
                                   (c.startswith("disk.") and c.endswith(".riops"))]
    assert "cpu.all.usr" in frame.columns and "disk.total.riops" in frame.columns
    # Columns apart from each other are read out of play's file, not mapped:
    # the same numbers.
    whole = perfmonger.read(path, phases=False)
    for name in frame.columns:
        assert np.array_equal(frame[name].to_numpy(), whole[name].to_numpy(), equal_nan=True)
    assert frame.index.equals(whole.index)


def test_as_dict_is_the_same_numbers(recordings):
    path = recordings["v1.pgr.zst"]
    frame = perfmonger.read(path)
    cols = perfmonger.read(path, as_dict=True)
    assert isinstance(cols, perfmonger.Columns)
    assert list(cols)[0] == "time" and list(cols)[1:] == list(frame.columns)
    for name in frame.columns:
        assert np.array_equal(cols[name], frame[name].to_numpy(), equal_nan=True)
    assert [m["label"] for m in cols.marks] == ["a", "b"]
    assert [p["phase"] for p in cols.phases] == ["start", "a", "b"]
    assert cols.meta == {"run": "r 1"}


def test_several_files_read_one_after_the_other(recordings):
    a, b = recordings["v1.pgr.gz"], recordings["v2.pgr.gz"]
    both = perfmonger.read([a, b])
    assert len(both) == len(perfmonger.read(a)) + len(perfmonger.read(b))
    assert list(both.attrs["marks"]["file"]) == [a, a, b, b]


def test_a_file_that_cannot_be_read_raises_with_the_readers_message(tmp_path):
    with pytest.raises(perfmonger.ReadError) as err:
        perfmonger.read(tmp_path / "missing.pgr")
    assert "missing.pgr" in err.value.message
    bad = tmp_path / "bad.pgr"
    bad.write_text("not a recording\n")
    with pytest.raises(perfmonger.ReadError):
        perfmonger.read(bad)


def test_the_binary_layout(recordings):
    """One JSON line padded to 64 bytes, then each column's rows as
    little-endian float64."""
    path = recordings["v2.pgr.gz"]
    out = run([PERFMONGER, "play", "--format", "columns", path]).stdout
    head, _, body = out.partition(b"\n")
    assert (len(head) + 1) % 64 == 0 and head.rstrip(b" ").endswith(b"}")
    header = json.loads(head)
    assert header["format"] == "perfmonger-columns" and header["version"] == 1
    assert header["dtype"] == "<f8"
    rows, names = header["rows"], header["columns"]
    assert names[:2] == ["time", "elapsed_time"]
    assert len(body) == rows * len(names) * 8
    arrays = np.frombuffer(body, dtype="<f8").reshape(len(names), rows)
    lines = play_json(path)
    assert rows == len(lines)
    assert list(flatten(lines[0])) == names
    for i, line in enumerate(lines):
        want = flatten(line)
        for j, name in enumerate(names):
            assert same(arrays[j][i], cell(want, name)), (i, name)
    # In a file the arrays are mapped where they lie, aligned.
    with tempfile.TemporaryFile() as f:
        f.write(out)
        f.flush()
        mapped = np.memmap(f, dtype="<f8", mode="r", offset=len(head) + 1,
                           shape=(len(names), rows))
        assert mapped.ctypes.data % 64 == 0
        assert np.array_equal(mapped, arrays, equal_nan=True)
        del mapped
    labels = [e.get("label") for e in header["events"] if e["event"] == "mark"]
    assert labels == ["a", "b"]
    assert [e["event"] for e in header["events"]].count("pause") == 1
    assert header["meta"] == {"run": "r 1"}


def test_columns_are_refused_on_a_terminal(recordings):
    leader, follower = pty.openpty()
    try:
        proc = subprocess.run([PERFMONGER, "play", "--format", "columns",
                               recordings["v2.pgr.zst"]], stdout=follower,
                              stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(follower)
        os.close(leader)
    assert proc.returncode == 1
    assert b"redirect standard output" in proc.stderr


def test_a_recording_of_one_pair(tmp_path):
    path = str(tmp_path / "one.pgr")
    with perfmonger.record(path, interval="1h", perfmonger=PERFMONGER):
        pass  # the first sample and the stop's: one line
    frame = check_equals_play(path)
    assert len(frame) == 1 and len(frame.attrs["marks"]) == 0
    assert list(frame.attrs["phases"]["phase"]) == ["start"]


def test_a_damaged_recording_reads_what_play_reads_with_a_warning(recordings, tmp_path):
    """play exits 2 after every line that could be read: read() returns
    them, as play's JSON, and warns naming the lost lines."""
    src = tmp_path / "plain.pgr"
    src.write_bytes(run([PERFMONGER, "cat", recordings["v1.pgr.gz"]]).stdout)
    lines = src.read_text().splitlines(keepends=True)
    lines[6] = "{garbage\n"
    damaged = tmp_path / "damaged.pgr"
    damaged.write_text("".join(lines))
    assert subprocess.run([PERFMONGER, "play", str(damaged)], capture_output=True,
                          timeout=60).returncode == 2
    with pytest.warns(perfmonger.DamagedRecording, match="lost"):
        frame = perfmonger.read(damaged, phases=False)
    want = [json.loads(ln) for ln in subprocess.run(
        [PERFMONGER, "play", str(damaged)], capture_output=True, timeout=60).stdout.splitlines()]
    assert len(frame) == len(want) > 0
    assert list(frame["elapsed_time"]) == [w["elapsed_time"] for w in want]
