"""A fresh clone, installed with ``pip install .`` alone (no extra), runs the quick start.

The test clones the repository's HEAD (what is committed: uncommitted changes are not in it),
creates a virtual environment, installs the clone with ``pip install .`` and runs the quick
start's commands with that environment's ``pokerpipe``, from the clone's root.  Each command's
exit status and what it prints or writes are checked against the clone's own inputs, and no
command may show a traceback.  Without the extras, ``stats --plot`` and ``--engine dask`` must
name what to install.

It needs the package index (pip fetches numpy, pyarrow, ... and the build backend), so it is
marked ``install`` and left out of ``make test`` and ``make test-all``: ``make test-install``
runs it, and CI does.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from .conftest import ROOT

pytestmark = pytest.mark.install

#: Seconds for ``pip install .`` (fetching and installing numpy, pandas, pyarrow, scipy, ...),
#: then for each command of the quick start; either bounds a wait that could hang.
INSTALL_TIMEOUT = 1800
COMMAND_TIMEOUT = 300
TESTED = "holdem: first seat's hand (7 cards) against exact shares"
#: The extras' modules, none of which ``pip install .`` installs.
EXTRAS = ("matplotlib", "distributed", "dask", "polars")


def environment() -> dict[str, str]:
    """This process's environment without what would make Python find another pipeline."""
    return {name: value for name, value in os.environ.items()
            if name not in {"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV"}}


def call(command: list[str | Path], *, cwd: Path, timeout: float = COMMAND_TIMEOUT,
         check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(word) for word in command], cwd=cwd, env=environment(), capture_output=True,
                          text=True, timeout=timeout)
    if check:
        assert done.returncode == 0, (f"{' '.join(map(str, command))} exited with {done.returncode}:\n"
                                      f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done


def csv_rows(path: Path) -> int:
    with open(path, newline="", encoding="utf-8") as handle:
        return sum(1 for _ in csv.DictReader(handle))


def test_a_fresh_clone_installed_with_pip_install_dot_runs_the_quick_start(tmp_path):
    head = call(["git", "rev-parse", "HEAD"], cwd=ROOT).stdout.strip()
    clone, venv = tmp_path / "pokerpipe", tmp_path / "venv"
    call(["git", "clone", "--quiet", "--no-checkout", ROOT, clone], cwd=tmp_path)
    call(["git", "checkout", "--quiet", "--detach", head], cwd=clone)
    assert call(["git", "rev-parse", "HEAD"], cwd=clone).stdout.strip() == head

    call([sys.executable, "-m", "venv", venv], cwd=tmp_path)
    python, pokerpipe = venv / "bin" / "python", venv / "bin" / "pokerpipe"
    call([python, "-m", "pip", "install", "."], cwd=clone, timeout=INSTALL_TIMEOUT)
    # Installed into the environment, not run from the clone's sources, and no extra came with it.
    probe = ("import importlib.util, json, pipeline; print(json.dumps([pipeline.__file__, "
             f"[m for m in {EXTRAS!r} if importlib.util.find_spec(m) is not None]]))")
    location, extras = json.loads(call([python, "-c", probe], cwd=tmp_path).stdout)
    assert Path(location).is_relative_to(venv / "lib"), location
    assert extras == [], f"pip install . installed extras: {extras}"

    ran: list[subprocess.CompletedProcess[str]] = []

    def pokerpipe_in_clone(*arguments: str, status: int = 0) -> subprocess.CompletedProcess[str]:
        done = call([pokerpipe, *arguments], cwd=clone, check=False)
        assert done.returncode == status, (f"pokerpipe {' '.join(arguments)} exited with {done.returncode}, "
                                           f"not {status}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
        ran.append(done)
        return done

    def summary(outdir: str) -> dict:
        return json.loads((clone / outdir / "summary.json").read_text(encoding="utf-8"))

    raw = clone / "data" / "raw"

    # The Larvis games file: every game scored and as its Winner column says.
    games = csv_rows(raw / "games.csv")
    done = pokerpipe_in_clone("run", "data/raw/games.csv", "-o", "out/games")
    assert f"{games:,} rows read: {games:,} scored, 0 rejected -> out/games" in done.stderr, done.stderr
    expected = summary("out/games")["expected"]
    assert (expected["column"], expected["checked"], expected["mismatched"]) == ("Winner", games, 0)

    # The hold'em archive, to Parquet: one winners row per deal.
    deals = csv_rows(raw / "deals.csv")
    done = pokerpipe_in_clone("run", "data/raw/deals.csv", "-o", "out/deals", "--format", "parquet")
    assert f"{deals:,} rows read: {deals:,} scored, 0 rejected -> out/deals" in done.stderr, done.stderr
    assert pq.read_table(clone / "out" / "deals" / "winners.parquet").num_rows == deals

    # The contest sample prints the judges' output.
    done = pokerpipe_in_clone("contest", "data/raw/contest.in")
    assert done.stdout == (raw / "contest.out").read_text(encoding="utf-8")

    done = pokerpipe_in_clone("compare", "AAAQQ", "QQAAA")
    assert done.stdout == "Tie\n"

    # Hand histories: every hand accounted for, and the recorded winners agree.
    for source, outdir in (("data/raw/phh", "out/phh"), ("data/raw/pokerstars", "out/stars")):
        pokerpipe_in_clone("run", source, "-o", outdir)
        counts = summary(outdir)
        parts = ("scored", "without_showdown", "unknown_cards", "set_apart", "rejected")
        assert counts["rows_read"] == sum(counts[f"rows_{part}"] for part in parts) > 0, counts
        assert counts["rows_scored"] > 0 and counts["expected"]["checked"] > 0, counts
        assert counts["expected"]["mismatched"] == 0, counts

    done = pokerpipe_in_clone("stats", "out/deals")
    tables = done.stdout
    assert TESTED in tables and "holdem: every hand, players = all" in tables, tables
    verdict = r"^chi-square \d+\.\d\d on \d+ degrees of freedom, p = \S+$"
    assert re.search(verdict, tables, re.MULTILINE), tables

    version = tomllib.loads((clone / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert pokerpipe_in_clone("--version").stdout == f"pokerpipe, version {version}\n"

    # What the extras add is named, with a command that installs it, and the rest still works.
    done = pokerpipe_in_clone("stats", "out/deals", "--plot", "out/fit.png", status=1)
    assert done.stdout == tables
    assert done.stderr == ("Error: --plot needs matplotlib (No module named 'matplotlib'): "
                           "pip install matplotlib\n")
    assert not (clone / "out" / "fit.png").exists()
    done = pokerpipe_in_clone("run", "data/raw/games.csv", "-o", "out/dask", "--engine", "dask", status=1)
    assert done.stderr == ("Error: the dask engine needs dask.distributed (No module named 'distributed'): "
                           "pip install 'dask[distributed]'\n")

    shown = [done.args for done in ran if "Traceback" in done.stderr]
    assert not shown, f"tracebacks from {shown}"
    shutil.rmtree(venv)  # a few hundred MB; kept for a look when the test fails
