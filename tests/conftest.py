"""Shared fixtures: bundled data, sample files, a CLI runner and a deadline for blocking calls."""

from __future__ import annotations

import contextlib
import csv
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

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
