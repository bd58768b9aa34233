"""The phases table: summary --phases' figures placed between the marks."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple


def flatten(value: Any, prefix: str, out: Dict[str, Any]) -> Dict[str, Any]:
    """A summary's JSON as {path: number}, named as play's CSV columns."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k in ("num_core", "phase", "meta") or (k == "devices" and isinstance(v, list)):
                continue
            flatten(v, f"{prefix}.{k}" if prefix else k, out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            flatten(v, f"{prefix}.{i}", out)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        out[prefix] = value
    return out


def marks_of(events: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    return [e for e in events if e.get("event") == "mark"]


def opening_marks(summary: List[Dict[str, Any]], marks: List[Dict[str, Any]]) -> List[Optional[int]]:
    """For each of summary --phases' phases, the index in `marks` of the
    mark that opens it, None for the first phase ("start") when no mark
    opens it: marks are matched by label, in order."""
    out: List[Optional[int]] = []
    used = 0
    for i, p in enumerate(summary):
        label = p.get("phase")
        at = next((j for j in range(used, len(marks)) if marks[j].get("label") == label), None)
        if at is None or (i == 0 and label == "start" and at != 0):
            out.append(None)
        else:
            out.append(at)
            used = at + 1
    return out


def phases(summary: List[Dict[str, Any]], events: List[Dict[str, Any]],
           first: Tuple[float, float], last: Tuple[float, float]) -> List[Dict[str, Any]]:
    """summary --phases' phases with their start and end (epoch seconds and
    elapsed): a phase starts at its mark (the first, "start", at the first
    sample) and ends where the next starts, the last at the last sample."""
    marks = marks_of(events)
    starts = [first if at is None else (marks[at]["time"], marks[at]["elapsed_time"])
              for at in opening_marks(summary, marks)]
    out = []
    for i, p in enumerate(summary):
        end = starts[i + 1] if i + 1 < len(summary) else last
        row = {"phase": p.get("phase"), "start": starts[i][0], "end": end[0],
               "start_elapsed": starts[i][1], "end_elapsed": end[1]}
        row.update(flatten(p, "", {}))
        out.append(row)
    return out
