"""Lines longer than the read block: one rejected row each, every other row scored, no hang.

Each run is a real `pokerpipe run` process under a timeout, so a hang fails
the test instead of stalling the suite.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import zlib
from pathlib import Path

import pyarrow.csv as pacsv
import pytest

from pipeline.formats.csv_files import LINE_LIMIT, RAW_HEAD_BYTES

GAMES = 1_000
TIMEOUT = 120  # seconds; a run of these files takes one or two


def write_games(path: Path, *, long_at: int, long_bytes: int) -> list[bytes]:
    """A games file of GAMES valid lines with one line of ``long_bytes`` at data line ``long_at``."""
    ranks = "23456789TJQKA"
    lines = [f"{ranks[i % 13] * 3}{ranks[(i + 1) % 13] * 2},QQAAA".encode() for i in range(GAMES)]
    with open(path, "wb") as handle:
        handle.write(b"Hand1,Hand2\n")
        for number, line in enumerate(lines, start=1):
            if number == long_at:
                block = b"A" * (1 << 20)
                for _ in range(long_bytes >> 20):
                    handle.write(block)
                handle.write(b",KKKQQ\n")
            handle.write(line + b"\n")
        if long_at > GAMES:
            handle.write(b"A" * long_bytes)  # the last line, without a line end
    return lines


def run(source: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pipeline", "run", str(source), "-o", str(out), *extra],
                          capture_output=True, text=True, timeout=TIMEOUT)


@pytest.mark.parametrize("megabytes", [20, 100])
@pytest.mark.parametrize("where", ["start", "middle", "end"])
def test_a_huge_line_is_one_rejected_row(tmp_path, megabytes, where):
    path = tmp_path / "games.csv"
    long_at = {"start": 1, "middle": GAMES // 2, "end": GAMES + 1}[where]
    write_games(path, long_at=long_at, long_bytes=megabytes << 20)
    out = tmp_path / "out"
    done = run(path, out, "--batch-rows", "300")
    path.unlink()
    assert done.returncode == 0, done.stderr[-2000:]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["rows_read"] == GAMES + 1
    assert summary["rows_scored"] == GAMES and summary["rows_rejected"] == 1
    rejects = pacsv.read_csv(out / "rejects.csv").to_pylist()
    [reject] = rejects
    assert reject["line"] == long_at + 1 and reject["source_row"] == long_at
    length = (megabytes << 20) + (len(",KKKQQ") if where != "end" else 0)
    assert f"line of {length:,} bytes, longer than the {LINE_LIMIT:,} bytes" in reject["reason"]
    assert reject["raw"] == "A" * RAW_HEAD_BYTES
    assert f"row {long_at} (line {long_at + 1}): line of {length:,} bytes" in done.stderr
    winners = pacsv.read_csv(out / "winners.csv")
    expected_rows = [n for n in range(1, GAMES + 2) if n != long_at]
    assert winners.column("row").to_pylist() == expected_rows


def test_a_line_just_within_the_limit_is_read_whole(tmp_path):
    path = tmp_path / "games.csv"
    body = b"K" * (LINE_LIMIT - len(b",22345"))
    path.write_bytes(b"Hand1,Hand2\nAAAQQ,QQAAA\n" + body + b",22345\n22345,33456\n")
    out = tmp_path / "out"
    done = run(path, out)
    assert done.returncode == 0, done.stderr
    [reject] = pacsv.read_csv(out / "rejects.csv").to_pylist()
    assert reject["raw"] == (body + b",22345").decode() and "symbols, expected 5" in reject["reason"]


def test_a_truncated_archive_names_its_last_complete_line(tmp_path):
    text = b"Hand1,Hand2\n" + b"".join(b"AAAQQ,%05d\n" % i for i in range(60_000))
    whole = gzip.compress(text)
    cut = whole[: len(whole) // 2]
    path = tmp_path / "cut.csv.gz"
    path.write_bytes(cut)
    readable = zlib.decompressobj(wbits=31).decompress(cut)
    complete = readable.count(b"\n")  # lines whose end was read, the header among them
    done = run(path, tmp_path / "out")
    assert done.returncode == 1
    # A line it really read to the end, and no more than a few kilobytes short of the damage.
    message = done.stderr.strip()
    assert message.startswith(f"Error: {path}: cannot read past line ")
    named = int(message.split("cannot read past line ")[1].split()[0])
    assert complete - 1_000 < named <= complete
    assert not (tmp_path / "out").exists()
