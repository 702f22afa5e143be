"""Shared fixtures: bundled data, sample files, a CLI runner, a deadline for blocking calls, a
process that finds some modules not installed, and the bundled PHH hands with a TOML writer and a
run that counts every hand."""

from __future__ import annotations

import contextlib
import csv
import functools
import json
import math
import re
import signal
import subprocess
import sys
import threading
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
RAW = ROOT / "data" / "raw"


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def spec_games() -> list[dict[str, str]]:
    """The 40 examples of the Larvis spec's table (data/raw/games.csv)."""
    with open(RAW / "games.csv", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture
def write_csv(tmp_path):
    """Write lines to a CSV file under tmp_path and return its path."""

    def write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.write_text(text)
        return path

    return write


class Deadline:
    """What :func:`deadline` yields: whether the block ran out of time."""

    expired = False


@contextlib.contextmanager
def deadline(seconds: int, what: str) -> Iterator[Deadline]:
    """Fail the test if the block is still running after ``seconds``.

    For calls that take no timeout of their own (starting a dask cluster, gathering its
    results): SIGALRM interrupts the main thread wherever it waits and raises pytest's failure
    there, a BaseException that no ``except Exception`` of the code under test swallows, with
    the traceback of where it hung.  Signals reach the main thread only, so elsewhere this
    refuses to run rather than guard nothing.  Deadlines do not nest.
    """
    if threading.current_thread() is not threading.main_thread():
        raise RuntimeError("deadline() needs the main thread: only it receives SIGALRM")
    state = Deadline()

    def expire(signum, frame):
        state.expired = True
        pytest.fail(f"{what}: still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    pending = signal.alarm(seconds)
    try:
        if pending:
            raise RuntimeError("deadline() inside another deadline, or beside another alarm")
        yield state
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


#: Run in a fresh interpreter: refuse to import the modules in argv[1] (comma-separated) as if
#: they were not installed, then run argv[2:] as ``python`` would (``-m MODULE ARGS`` or
#: ``SCRIPT ARGS``).
_HIDING = """
import runpy, sys
hidden = set(sys.argv[1].split(","))
class NotInstalled:
    def find_spec(self, name, path, target=None):
        top = name.partition(".")[0]
        if top in hidden:
            raise ModuleNotFoundError(f"No module named {top!r}", name=top)
sys.meta_path.insert(0, NotInstalled())
command = sys.argv[2:]
if command[0] == "-m":
    sys.argv = [command[1], *command[2:]]
    runpy.run_module(command[1], run_name="__main__", alter_sys=True)
else:
    sys.argv = command
    runpy.run_path(command[0], run_name="__main__")
"""


def run_hiding(hidden: Iterable[str], *command: str | Path, cwd: Path = ROOT,
               timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run ``python COMMAND...`` (``-m pipeline ...`` or a script and its arguments) in a process
    where the modules ``hidden`` cannot be imported, as if they were not installed."""
    return subprocess.run([sys.executable, "-c", _HIDING, ",".join(hidden), *map(str, command)],
                          cwd=cwd, capture_output=True, text=True, timeout=timeout)


# --- PHH hand histories: the bundled Pluribus hands, a TOML writer, a run that counts every hand ---

PHH = RAW / "phh"


@dataclass(frozen=True)
class PhhHand:
    """One bundled hand: where it comes from, its TOML text as written (no table header), its fields."""

    source: str
    text: str
    document: dict[str, Any]


@functools.cache
def pluribus_hands() -> tuple[PhhHand, ...]:
    """Every bundled Pluribus hand: the 151 files of data/raw/phh/pluribus, then the 73 tables of
    pluribus-31.phhs, in that order."""
    hands = []
    for path in sorted((PHH / "pluribus").rglob("*.phh"), key=lambda p: (p.parent.name, int(p.stem))):
        text = path.read_text()
        hands.append(PhhHand(str(path.relative_to(PHH)), text, tomllib.loads(text)))
    archive = PHH / "pluribus-31.phhs"
    tables = tomllib.loads(archive.read_text())
    blocks = re.split(r"^\[(\d+)\]\n", archive.read_text(), flags=re.MULTILINE)
    assert blocks[0] == "" and len(blocks) == 2 * len(tables) + 1
    for key, text in zip(blocks[1::2], blocks[2::2], strict=True):
        hands.append(PhhHand(f"{archive.name} [{key}]", text, tables[key]))
    return tuple(hands)


@pytest.fixture(scope="session")
def pluribus() -> tuple[PhhHand, ...]:
    """The 224 bundled Pluribus hands (:func:`pluribus_hands`)."""
    hands = pluribus_hands()
    assert len(hands) == 151 + 73
    return hands


def toml_value(value: Any) -> str:
    """A value as TOML writes it: strings literal where they can be, numbers as Python prints them
    (``inf`` included), arrays on one line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"'{value}'" if "'" not in value and "\n" not in value else json.dumps(value)
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    raise TypeError(f"no TOML for {value!r}")


def toml_text(document: dict[str, Any], *, multiline: Iterable[str] = ()) -> str:
    """A hand's fields as TOML text, one ``key = value`` line each; the arrays named in
    ``multiline`` are written one item a line, with TOML comments among them."""
    lines = []
    for key, value in document.items():
        if key in multiline:
            items = "".join(f"  {toml_value(item)},  # {key} {i}\n" for i, item in enumerate(value, 1))
            lines.append(f"{key} = [  # one a line\n{items}]")
        else:
            lines.append(f"{key} = {toml_value(value)}")
    return "\n".join(lines) + "\n"


def phhs_text(bodies: Iterable[str]) -> str:
    """Hands' TOML texts as the tables [1], [2], ... of a .phhs file."""
    return "".join(f"[{number}]\n{body.rstrip()}\n\n" for number, body in enumerate(bodies, start=1))


@dataclass
class PhhRun:
    """What a run wrote: summary.json, winners.csv and rejects.csv (every cell a string)."""

    summary: dict[str, Any]
    winners: pd.DataFrame
    rejects: pd.DataFrame

    def by_hand(self) -> dict[str, tuple[str, str]]:
        """(winners, expected) by the hand's table key."""
        return {hand: (won, expected) for hand, won, expected
                in zip(self.winners["hand"], self.winners["winners"], self.winners["expected"], strict=True)}


def run_phh(inputs: Iterable[Path], outdir: Path) -> PhhRun:
    """Run pokerpipe on PHH inputs; check that every hand read ends in exactly one count."""
    from pipeline.runs.runner import Run

    summary = Run([str(i) for i in inputs], outdir).execute()
    winners = pd.read_csv(outdir / "winners.csv", dtype=str, keep_default_na=False)
    rejects = pd.read_csv(outdir / "rejects.csv", dtype=str, keep_default_na=False)
    assert summary["rows_read"] == (summary["rows_scored"] + summary["rows_without_showdown"]
                                    + summary["rows_unknown_cards"] + summary["rows_set_apart"]
                                    + summary["rows_rejected"]), summary
    assert summary["rows_scored"] == len(winners) and summary["rows_rejected"] == len(rejects)
    return PhhRun(summary, winners, rejects)
