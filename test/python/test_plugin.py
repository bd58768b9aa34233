"""The pytest plugin on a small generated test suite: every test marked,
the fixture's own marks recorded, the ranking printed."""

import os
import subprocess
import sys

import perfmonger
from conftest import PERFMONGER, play_json

SUITE = '''
import pytest

def test_cpu():
    sum(i * i for i in range(6000000))

def test_memory():
    global kept
    kept = bytearray(16 << 20)
    kept[::4096] = b"x" * len(kept[::4096])

@pytest.mark.parametrize("n", [1, 2])
def test_param(n):
    assert n

def test_own_marks(perfmonger_recording):
    assert perfmonger_recording.mark("inside")["ok"]

class TestClass:
    def test_method(self):
        pass
'''

NODEIDS = ["test_suite.py::test_cpu", "test_suite.py::test_memory",
           "test_suite.py::test_param[1]", "test_suite.py::test_param[2]",
           "test_suite.py::test_own_marks", "test_suite.py::TestClass::test_method"]


def pytest_run(tmp_path, *args):
    (tmp_path / "test_suite.py").write_text(SUITE)
    env = dict(os.environ, PERFMONGER=os.path.abspath(PERFMONGER))
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           "-p", "perfmonger.pytest_plugin", *args, "test_suite.py"],
                          cwd=tmp_path, env=env, capture_output=True, timeout=300, text=True)


def test_every_test_is_marked_and_ranked(tmp_path):
    out = pytest_run(tmp_path, "--perfmonger=session.pgr.zst", "--perfmonger-interval=1s")
    assert out.returncode == 0, out.stdout + out.stderr
    path = str(tmp_path / "session.pgr.zst")
    labels = [e["label"] for e in play_json(path, "--events") if e.get("event") == "mark"]
    assert labels == NODEIDS[:5] + ["inside"] + NODEIDS[5:]
    text = out.stdout
    assert "perfmonger: session.pgr.zst" in text and "6 tests marked" in text
    cpu = text[text.index("most CPU"):text.index("most disk")]
    assert "test_suite.py::test_cpu" in cpu.splitlines()[1]  # the top one
    memory = text[text.index("most memory"):]
    assert "test_suite.py::test_memory" in memory.splitlines()[1]
    frame = perfmonger.read(path, columns=["cpu.all.*"])
    assert list(frame.attrs["marks"]["label"]) == labels


def test_without_the_option_the_fixture_skips(tmp_path):
    out = pytest_run(tmp_path, "-rs")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "1 skipped" in out.stdout and "--perfmonger=PATH" in out.stdout
    assert "perfmonger:" not in out.stdout


def test_long_node_ids_become_labels_of_128_bytes():
    from perfmonger.pytest_plugin import mark_label
    long = "t.py::test_x[" + "a" * 300 + "]"
    label = mark_label(long)
    assert len(label) == 128 and label.startswith("t.py::test_x[aaa")
    assert mark_label(long + "b") != label
    assert mark_label("t.py::test[é]") == "t.py::test[?]"
