"""Shared fixtures: bundled data, sample files and a CLI runner."""

from __future__ import annotations

import csv
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
