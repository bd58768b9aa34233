"""perfmonger.read on a columns export (perfmonger.export, or play
--format columns saved to a file) against read on the recording itself:
the same frame, marks, phases and meta, whole and through windows."""

import json
import math
import os
import subprocess

import pytest

import perfmonger
from conftest import PERFMONGER, legacy
from test_read import RECORDINGS, make_recording

np = pytest.importorskip("numpy", reason="python3-numpy is not installed")
pd = pytest.importorskip("pandas", reason="python3-pandas is not installed")

BOUNDS = ["phase", "start", "end", "start_elapsed", "end_elapsed", "file"]


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    """{name: (recording, its export)}."""
    d = tmp_path_factory.mktemp("export")
    out = {}
    for name, version in RECORDINGS[:2]:
        rec = make_recording(d / name, version)
        out[name] = (rec, perfmonger.export(rec, str(d / (name + ".columns")),
                                            perfmonger=PERFMONGER))
    return out


def same_frame(got, want):
    assert list(got.columns) == list(want.columns)
    assert got.index.equals(want.index)
    assert np.array_equal(got.to_numpy(), want.to_numpy(), equal_nan=True)


def same_tables(got, want, figures=True):
    """Marks and phases equal, the file column aside (it names each file)."""
    assert got.attrs["meta"] == want.attrs["meta"] and got.attrs["host"] == want.attrs["host"]
    gm, wm = got.attrs["marks"].drop(columns="file"), want.attrs["marks"].drop(columns="file")
    assert gm.equals(wm)
    gp, wp = got.attrs["phases"], want.attrs["phases"]
    bounds = [c for c in BOUNDS if c != "file"]
    assert gp[bounds].equals(wp[bounds])
    if figures:
        assert list(gp.columns) == list(wp.columns)
        rest = [c for c in wp.columns if c not in BOUNDS]
        assert np.array_equal(gp[rest].to_numpy(float), wp[rest].to_numpy(float), equal_nan=True)


def read_both(rec, export, **kw):
    want = perfmonger.read(rec, perfmonger=PERFMONGER, **kw)
    got = perfmonger.read(export, **kw)  # no executable needed
    return got, want


@pytest.mark.parametrize("name", [n for n, _ in RECORDINGS[:2]])
def test_an_export_reads_as_its_recording(exports, name):
    rec, export = exports[name]
    got, want = read_both(rec, export)
    assert len(got) >= 17
    same_frame(got, want)
    same_tables(got, want)
    assert list(got.attrs["phases"]["phase"]) == ["start", "a", "b"]
    assert got.attrs["files"] == [export]


def test_an_export_is_known_by_its_bytes_not_its_name(exports, tmp_path):
    rec, export = exports["v2.pgr.zst"]
    renamed = tmp_path / "hour.pgr.zst"
    os.link(export, renamed)
    got, want = read_both(rec, str(renamed))
    same_frame(got, want)


@pytest.mark.parametrize("window", [{"phase": "a"}, {"phase": "b"},
                                    {"start": "mark:a", "end": "mark:b"}, {"start": "mark:b"},
                                    {"end": "mark:a"}])
def test_mark_windows_select_the_recordings_rows(exports, window):
    rec, export = exports["v2.pgr.zst"]
    got, want = read_both(rec, export, **window)
    assert 0 < len(got) < len(perfmonger.read(export))
    same_frame(got, want)
    # The phases the window cuts have bounds but no figures in an export
    # (its trailer holds the whole phases'); the others have the figures.
    same_tables(got, want, figures=False)
    gp, wp = got.attrs["phases"], want.attrs["phases"]
    label = window.get("phase")
    if label:
        whole = gp.index[gp["phase"] == label][0]
        figures = [c for c in wp.columns if c not in BOUNDS]
        assert "exectime" in figures
        for c in figures:
            got_value, want_value = gp.loc[whole].get(c, math.nan), wp.loc[whole, c]
            assert got_value == want_value or (math.isnan(got_value) and math.isnan(want_value)), c
        cut = gp.index[gp["phase"] != label]
        assert gp.loc[cut, "exectime"].isna().all()


def test_time_windows_select_the_recordings_rows(exports):
    rec, export = exports["v1.pgr.gz"]
    whole = perfmonger.read(export)
    elapsed = whole["elapsed_time"].to_numpy()
    # Between two rows' distinct millisecond times: an export knows the
    # rows' times to the millisecond, play the samples' to the nanosecond.
    wall = whole.index.asi8
    k = next(k for k in range(1, len(elapsed) - 2) if elapsed[k + 1] - elapsed[k] >= 0.002
             and wall[k + 1] - wall[k] >= 2_000_000)
    cut = round((elapsed[k] + elapsed[k + 1]) / 2, 4)
    for window in ({"start": cut}, {"end": cut}, {"start": str(cut) + "s"}):
        got, want = read_both(rec, export, **window)
        assert 0 < len(got) < len(whole)
        same_frame(got, want)
        same_tables(got, want, figures=False)
    wall = whole.index[k] + (whole.index[k + 1] - whole.index[k]) / 2
    for window in ({"start": wall.to_pydatetime()}, {"end": wall.isoformat()}):
        got, want = read_both(rec, export, **window)
        assert 0 < len(got) < len(whole)
        same_frame(got, want)


def test_columns_are_chosen_by_glob_on_an_export(exports):
    rec, export = exports["v2.pgr.zst"]
    for globs in (["cpu.all.*"], ["disk.*.util", "cpu.all.usr"], "mem.*"):
        got, want = read_both(rec, export, columns=globs, phase="a")
        assert len(got.columns) > 0
        same_frame(got, want)
    got = perfmonger.read(export, columns=["cpu.all.*"], as_dict=True)
    want = perfmonger.read(rec, columns=["cpu.all.*"], as_dict=True, perfmonger=PERFMONGER)
    assert list(got) == list(want)
    assert all(np.array_equal(got[c], want[c], equal_nan=True) for c in want)


def test_play_format_columns_saved_to_a_file_reads_without_figures(exports, tmp_path):
    rec, _ = exports["v2.pgr.zst"]
    bare = tmp_path / "bare"
    with open(bare, "wb") as out:
        subprocess.run([PERFMONGER, "play", "--format", "columns", rec], stdout=out,
                       stderr=subprocess.DEVNULL, check=True, timeout=120)
    got, want = read_both(rec, str(bare))
    same_frame(got, want)
    same_tables(got, want, figures=False)
    assert "exectime" not in got.attrs["phases"]


def test_an_export_of_a_perfmonger_1_0_recording(tmp_path):
    rec = legacy("small-all.pgr.gz")
    export = perfmonger.export(rec, str(tmp_path / "small.columns"), perfmonger=PERFMONGER)
    got, want = read_both(rec, export)
    assert len(got) > 0
    same_frame(got, want)
    same_tables(got, want)


def damaged(export, tmp_path, how):
    data = open(export, "rb").read()
    path = tmp_path / how
    if how == "truncated":
        path.write_bytes(data[:len(data) // 2])
    elif how == "header":
        path.write_bytes(data[:40])
    elif how == "json":
        path.write_bytes(data[:30] + b"!" + data[31:])
    else:  # a trailer that is not one
        line = data[:data.index(b"\n") + 1]
        head = json.loads(line)
        end = len(line) + head["rows"] * len(head["columns"]) * 8
        path.write_bytes(data[:end] + b"{broken\n")
    return str(path)


@pytest.mark.parametrize("how", ["truncated", "header", "json", "trailer"])
def test_a_damaged_export_raises_one_line_naming_the_fix(exports, tmp_path, how):
    _, export = exports["v2.pgr.zst"]
    path = damaged(export, tmp_path, how)
    with pytest.raises(perfmonger.ReadError) as err:
        perfmonger.read(path)
    text = str(err.value)
    assert "\n" not in text and path in text
    assert "perfmonger.export(recording, path)" in text


def test_export_of_an_unreadable_recording_raises_and_leaves_nothing(tmp_path):
    bad = tmp_path / "bad.pgr"
    bad.write_bytes(b"not a recording\n")
    out = tmp_path / "out.columns"
    with pytest.raises(perfmonger.ReadError):
        perfmonger.export(str(bad), str(out), perfmonger=PERFMONGER)
    assert os.listdir(tmp_path) == ["bad.pgr"]


def test_an_export_of_a_damaged_recording_warns_and_reads_as_it(exports, tmp_path):
    rec, _ = exports["v2.pgr.zst"]
    lines = subprocess.run([PERFMONGER, "cat", rec], capture_output=True, check=True,
                           timeout=120).stdout.decode().splitlines(keepends=True)
    lines[6] = "{garbage\n"
    damaged = tmp_path / "damaged.pgr"
    damaged.write_text("".join(lines))
    with pytest.warns(perfmonger.DamagedRecording, match="lost"):
        export = perfmonger.export(str(damaged), str(tmp_path / "d.columns"),
                                   perfmonger=PERFMONGER)
    with pytest.warns(perfmonger.DamagedRecording):
        want = perfmonger.read(str(damaged), perfmonger=PERFMONGER)
    got = perfmonger.read(export)
    assert len(got) > 0
    same_frame(got, want)
    same_tables(got, want)
