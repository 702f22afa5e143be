"""Start-up: run, contest, compare and generate never import pandas (0.2 to 0.5 s saved)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import RAW

#: Seconds one `pokerpipe` process may take (each takes well under one).
TIMEOUT = 120

#: Runs the console script's main() and reports, on the way out, which of these were imported.
PROBE = """\
import atexit, sys
atexit.register(lambda: print("IMPORTED", *sorted(m for m in ("pandas", "pyarrow") if m in sys.modules),
                              file=sys.stderr))
sys.argv = ["pokerpipe", *sys.argv[1:]]
from pipeline.console import main
main()
"""


def imported(args: list[str], cwd) -> set[str]:
    """Which of pandas and pyarrow a `pokerpipe ARGS` process imported; fails on a non-zero exit."""
    done = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr[-2000:]
    [line] = [line for line in done.stderr.splitlines() if line.startswith("IMPORTED")]
    return set(line.split()[1:])


@pytest.mark.parametrize("args", [
    ["compare", "AAAQQ", "QQAAA"],
    ["contest", str(RAW / "contest.in")],
    ["generate", "--game", "holdem", "--rows", "100", "-o", "deals.parquet"],
    ["run", str(RAW / "games.csv"), "-o", "games", "-q"],
    ["run", str(RAW / "deals.csv"), "-o", "deals", "--format", "parquet", "-q"],
    ["run", str(RAW / "contest.in"), "-o", "contest", "-q"],
    ["run", str(RAW / "phh"), "-o", "phh", "-q"],
], ids=lambda args: "-".join(a for a in args[:2] if "/" not in a))
def test_no_pandas(tmp_path, args):
    modules = imported(args, tmp_path)
    assert "pyarrow" in modules and "pandas" not in modules


def test_stats_does_import_pandas(tmp_path):
    imported(["run", str(RAW / "deals.csv"), "-o", "deals", "-q"], tmp_path)
    assert "pandas" in imported(["stats", "deals"], tmp_path)
