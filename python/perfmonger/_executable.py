"""Finding the ``perfmonger`` executable."""

from __future__ import annotations

import os
import shutil
from typing import Optional

from ._errors import ExecutableNotFound


def find_perfmonger(perfmonger: Optional[str] = None) -> str:
    """The executable to run: ``perfmonger`` if given, else $PERFMONGER, else
    ``perfmonger`` on PATH. Raises ExecutableNotFound naming the fix."""
    given = perfmonger or os.environ.get("PERFMONGER") or "perfmonger"
    if os.sep in given:
        if os.access(given, os.X_OK) and os.path.isfile(given):
            return os.path.abspath(given)
        raise ExecutableNotFound(f"{given} is not an executable file: give perfmonger= "
                                 "or PERFMONGER the path of the perfmonger binary")
    found = shutil.which(given)
    if found is None:
        raise ExecutableNotFound(f"no '{given}' on PATH: install perfmonger, or give "
                                 "perfmonger= or PERFMONGER the path of its binary")
    return found
