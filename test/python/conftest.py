"""Shared by the Python package's tests (run by meson: test/python/meson.build).

PERFMONGER is the binary under test, PYTHONPATH holds the package's source
(python/), PM_LEGACY_DATA PerfMonger 1.0's golden recordings. Every wait
is bounded by a deadline of seconds; nothing sleeps.
"""

import json
import os
import subprocess

import pytest

PERFMONGER = os.environ.get("PERFMONGER", "perfmonger")
LEGACY = os.environ.get("PM_LEGACY_DATA", "")


def run(args, **kw):
    kw.setdefault("timeout", 120)
    return subprocess.run(args, check=True, capture_output=True, **kw)


def play_json(path, *extra):
    out = run([PERFMONGER, "play", *extra, path]).stdout.decode()
    return [json.loads(line) for line in out.splitlines()]


def flatten(value, prefix="", out=None):
    """play's JSON line as {path: number}: the CSV's (and read()'s) columns."""
    out = {} if out is None else out
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "num_core" or (k == "devices" and isinstance(v, list)):
                continue
            flatten(v, f"{prefix}.{k}" if prefix else k, out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            flatten(v, f"{prefix}.{i}", out)
    else:
        out[prefix] = value
    return out


def legacy(name):
    path = os.path.join(LEGACY, name)
    if not os.path.exists(path):
        pytest.skip(f"{path} missing (PM_LEGACY_DATA)")
    return path


def cell(flat, column):
    """A column's value in a flattened line: a null object (a recorded
    process gone) nulls every column under it."""
    if column in flat:
        return flat[column]
    parts = column.split(".")
    for n in range(len(parts) - 1, 0, -1):
        prefix = ".".join(parts[:n])
        if prefix in flat:
            assert flat[prefix] is None, (column, flat[prefix])
            return None
    raise KeyError(column)
