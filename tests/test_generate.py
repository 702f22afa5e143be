"""Tests for pipeline.runs.generate: reproducible random archives from a real deck.

Outputs are read back with plain Python (csv, gzip, a small card parser
written here) so the checks do not lean on the code they check.
"""

from __future__ import annotations

import bz2
import csv
import gzip
import math
from collections import Counter

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.errors import OutputExists
from pipeline.runs.generate import BLOCK_ROWS, generate

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def parse_card(text: str, *, ten: str = "T") -> int:
    """Reference parser: 'Ah' -> 4 * rank + suit, ten spelled ``ten`` only."""
    assert len(text) == 2, text
    rank, suit = text
    assert rank != ("X" if ten == "T" else "T"), f"ten written {rank!r} in {text!r}"
    rank = "T" if rank == ten else rank
    assert rank in RANKS and suit in SUITS, text
    return 4 * RANKS.index(rank) + SUITS.index(suit)


def parse_cards(text: str, count: int, *, ten: str = "T") -> list[int]:
    parts = text.split(" ")
    assert len(parts) == count and " ".join(parts) == text, repr(text)
    return [parse_card(part, ten=ten) for part in parts]


def read_csv(path) -> tuple[list[str], list[list[str]]]:
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", newline="", encoding="ascii") as handle:
        header, *rows = list(csv.reader(handle))
    return header, rows


def holdem_deals(path, players: int) -> list[list[int]]:
    """Every deal of a hold'em CSV as 5 + 2K card codes, checked as it is read."""
    header, rows = read_csv(path)
    assert header == ["board"] + [f"p{i}" for i in range(1, players + 1)]
    deals = []
    for row in rows:
        assert len(row) == players + 1
        deal = parse_cards(row[0], 5)
        for hole in row[1:]:
            deal += parse_cards(hole, 2)
        deals.append(deal)
    return deals


def contest_instances(path) -> list[tuple[int, list[int]]]:
    """Parse a contest file: N, a board line, N lines of two cards, repeated."""
    text = path.read_bytes().decode("ascii")
    assert text == "" or text.endswith("\n")
    lines = text.split("\n")[:-1]
    instances, at = [], 0
    while at < len(lines):
        n = int(lines[at])
        assert lines[at] == str(n) and 1 <= n <= 10
        deal = parse_cards(lines[at + 1], 5, ten="X")
        for line in lines[at + 2:at + 2 + n]:
            deal += parse_cards(line, 2, ten="X")
        assert len(deal) == 5 + 2 * n, "instance cut short"
        instances.append((n, deal))
        at += 2 + n
    return instances


def assert_real_deck(deals: list[list[int]], cards_per_deal: int) -> None:
    for deal in deals:
        assert len(deal) == cards_per_deal
        assert len(set(deal)) == cards_per_deal, f"a card dealt twice: {deal}"
        assert all(0 <= code < 52 for code in deal)


# ---------------------------------------------------------------- reproducibility

@pytest.mark.parametrize("name", ["deals.csv", "deals.csv.gz", "deals.in"])
def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path, name):
    first, again, other = (tmp_path / d for d in ("a", "b", "c"))
    for folder, seed in ((first, 7), (again, 7), (other, 8)):
        assert generate(folder / name, game="holdem", rows=500, players=4, seed=seed) == 500
    assert (first / name).read_bytes() == (again / name).read_bytes()
    assert (first / name).read_bytes() != (other / name).read_bytes()


def test_larvis_same_seed_same_bytes(tmp_path):
    for name, seed in (("a.csv", 3), ("b.csv", 3), ("c.csv", 4)):
        generate(tmp_path / name, game="larvis", rows=500, seed=seed)
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    assert (tmp_path / "a.csv").read_bytes() != (tmp_path / "c.csv").read_bytes()


def test_batch_rows_smaller_than_rows(tmp_path):
    rows = 1_000
    assert generate(tmp_path / "small.csv", game="holdem", rows=rows, players=3, batch_rows=7) == rows
    deals = holdem_deals(tmp_path / "small.csv", 3)
    assert len(deals) == rows
    assert_real_deck(deals, 5 + 2 * 3)
    # Deals do not depend on how rows are batched.
    generate(tmp_path / "whole.csv", game="holdem", rows=rows, players=3)
    assert (tmp_path / "small.csv").read_bytes() == (tmp_path / "whole.csv").read_bytes()
    generate(tmp_path / "small.in", game="holdem", rows=rows, players=3, batch_rows=64)
    assert len(contest_instances(tmp_path / "small.in")) == rows


def test_batches_across_a_block_boundary(tmp_path):
    rows = BLOCK_ROWS + 50
    generate(tmp_path / "a.csv", game="larvis", rows=rows, batch_rows=BLOCK_ROWS - 30)
    generate(tmp_path / "b.csv", game="larvis", rows=rows, batch_rows=rows)
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    _, games = read_csv(tmp_path / "a.csv")
    assert len(games) == rows


def test_shorter_archive_is_a_prefix(tmp_path):
    generate(tmp_path / "short.csv", game="holdem", rows=100, seed=5)
    generate(tmp_path / "long.csv", game="holdem", rows=300, seed=5)
    assert holdem_deals(tmp_path / "long.csv", 6)[:100] == holdem_deals(tmp_path / "short.csv", 6)


# ---------------------------------------------------------------- content

@pytest.mark.parametrize("players", [1, 2, 6, 10])
def test_holdem_deals_come_from_one_deck(tmp_path, players):
    path = tmp_path / "deals.csv"
    assert generate(path, game="holdem", rows=2_000, players=players, seed=players) == 2_000
    deals = holdem_deals(path, players)
    assert len(deals) == 2_000
    assert_real_deck(deals, 5 + 2 * players)


def test_larvis_hands_come_from_one_deck(tmp_path):
    path = tmp_path / "games.csv"
    assert generate(path, game="larvis", rows=5_000, players=3, seed=11) == 5_000
    header, rows = read_csv(path)
    assert header == ["Hand1", "Hand2"]
    assert len(rows) == 5_000
    symbols = Counter()
    for hand1, hand2 in rows:
        for hand in (hand1, hand2):
            assert len(hand) == 5 and all(symbol in RANKS for symbol in hand), hand
        # Ten cards of one deck: no rank more than four times in a game.
        # (Two independent decks would break this in about 30 of 5,000 games.)
        assert max(Counter(hand1 + hand2).values()) <= 4, (hand1, hand2)
        symbols.update(hand1 + hand2)
    assert set(symbols) == set(RANKS)


def test_contest_file_format(tmp_path):
    path = tmp_path / "deals.in"
    assert generate(path, game="holdem", rows=300, players=4, seed=2) == 300
    text = path.read_text(encoding="ascii")
    assert "X" in text and "T" not in text
    instances = contest_instances(path)
    assert len(instances) == 300
    assert all(n == 4 for n, _ in instances)
    assert_real_deck([deal for _, deal in instances], 5 + 2 * 4)
    # .txt is a contest file too, and holds the same deals as the CSV.
    generate(tmp_path / "deals.txt", game="holdem", rows=300, players=4, seed=2)
    assert (tmp_path / "deals.txt").read_bytes() == path.read_bytes()
    generate(tmp_path / "deals.csv", game="holdem", rows=300, players=4, seed=2)
    assert [deal for _, deal in instances] == holdem_deals(tmp_path / "deals.csv", 4)


def test_contest_file_with_ten_players(tmp_path):
    path = tmp_path / "ten.in"
    generate(path, game="holdem", rows=50, players=10)
    instances = contest_instances(path)
    assert [n for n, _ in instances] == [10] * 50
    assert path.read_text().startswith("10\n")


@pytest.mark.parametrize("game", ["holdem", "larvis"])
def test_parquet_and_csv_hold_the_same_deals(tmp_path, game):
    generate(tmp_path / "deals.csv", game=game, rows=1_500, players=5, seed=9, batch_rows=400)
    generate(tmp_path / "deals.parquet", game=game, rows=1_500, players=5, seed=9)
    header, rows = read_csv(tmp_path / "deals.csv")
    table = pq.read_table(tmp_path / "deals.parquet")
    assert table.column_names == header
    assert all(field.type == pa.string() for field in table.schema)
    assert [list(row.values()) for row in table.to_pylist()] == rows


def test_an_extension_in_capitals_names_the_same_format(tmp_path):
    """As readers take deals.CSV for CSV, generate writes it so (it refused .CSV, took .csv.GZ)."""
    for name in ("deals.csv", "deals.CSV", "deals.parquet", "deals.Parquet", "deals.csv.GZ"):
        generate(tmp_path / name, game="holdem", rows=50, players=3, seed=2)
    assert (tmp_path / "deals.CSV").read_bytes() == (tmp_path / "deals.csv").read_bytes()
    assert gzip.decompress((tmp_path / "deals.csv.GZ").read_bytes()) == (tmp_path / "deals.csv").read_bytes()
    assert pq.read_table(tmp_path / "deals.Parquet").equals(pq.read_table(tmp_path / "deals.parquet"))


@pytest.mark.parametrize("extension, decompress", [
    (".csv.gz", gzip.decompress),
    (".csv.bz2", bz2.decompress),
    (".csv.zst", lambda data: pa.input_stream(pa.py_buffer(data), compression="zstd").read()),
])
def test_compressed_csv_is_the_plain_csv(tmp_path, extension, decompress):
    codec = {".csv.gz": "gzip", ".csv.bz2": "bz2", ".csv.zst": "zstd"}[extension]
    if not pa.Codec.is_available(codec):
        pytest.skip(f"pyarrow built without {codec}")
    generate(tmp_path / "deals.csv", game="holdem", rows=700, seed=4, batch_rows=300)
    generate(tmp_path / f"deals{extension}", game="holdem", rows=700, seed=4, batch_rows=300)
    plain = (tmp_path / "deals.csv").read_bytes()
    assert decompress((tmp_path / f"deals{extension}").read_bytes()) == plain


# ---------------------------------------------------------------- empty output

def test_zero_rows_writes_valid_empty_files(tmp_path):
    assert generate(tmp_path / "h.csv", game="holdem", rows=0, players=2) == 0
    assert read_csv(tmp_path / "h.csv") == (["board", "p1", "p2"], [])
    assert generate(tmp_path / "l.csv", game="larvis", rows=0) == 0
    assert read_csv(tmp_path / "l.csv") == (["Hand1", "Hand2"], [])
    generate(tmp_path / "h.csv.gz", game="holdem", rows=0, players=2)
    assert read_csv(tmp_path / "h.csv.gz") == (["board", "p1", "p2"], [])
    generate(tmp_path / "h.parquet", game="holdem", rows=0, players=2)
    table = pq.read_table(tmp_path / "h.parquet")
    assert table.num_rows == 0 and table.column_names == ["board", "p1", "p2"]
    generate(tmp_path / "h.in", game="holdem", rows=0)
    assert (tmp_path / "h.in").read_bytes() == b""


# ---------------------------------------------------------------- bad arguments

@pytest.mark.parametrize("name, arguments, named", [
    ("x.csv", dict(game="poker", rows=1), "game"),
    ("x.csv", dict(game="holdem", rows=-1), "rows"),
    ("x.csv", dict(game="holdem", rows=1.5), "rows"),
    ("x.csv", dict(game="holdem", rows=1, players=0), "players"),
    ("x.csv", dict(game="holdem", rows=1, players=11), "players"),
    ("x.csv", dict(game="holdem", rows=1, seed=-1), "seed"),
    ("x.csv", dict(game="holdem", rows=1, batch_rows=0), "batch_rows"),
    ("x.json", dict(game="holdem", rows=1), "path"),
    ("x.gz", dict(game="holdem", rows=1), "path"),
    ("x.in", dict(game="larvis", rows=1), "game"),
    ("x.txt", dict(game="larvis", rows=1), "game"),
])
def test_bad_arguments_raise_value_error(tmp_path, name, arguments, named):
    with pytest.raises(ValueError, match=named):
        generate(tmp_path / name, **arguments)
    assert list(tmp_path.iterdir()) == [], "nothing is written on bad arguments"


def test_an_existing_file_is_refused_by_name_without_the_command_line_flag(tmp_path):
    # The library names the file; how to replace it is the caller's to say (--force, force=True).
    thesis = tmp_path / "thesis.csv"
    thesis.write_text("three years of work")
    with pytest.raises(OutputExists) as refused:
        generate(thesis, game="holdem", rows=5)
    assert str(refused.value) == f"{thesis}: already exists"
    assert isinstance(refused.value, ValueError)  # a UsageError, as the other bad arguments
    assert thesis.read_text() == "three years of work"
    assert generate(thesis, game="holdem", rows=5, force=True) == 5


def test_players_is_not_checked_for_larvis(tmp_path):
    assert generate(tmp_path / "g.csv", game="larvis", rows=3, players=99) == 3


# ---------------------------------------------------------------- uniformity

def test_board_cards_are_uniform(tmp_path):
    deals = 40_000  # 200,000 board cards
    path = tmp_path / "deals.csv"
    generate(path, game="holdem", rows=deals, players=1, seed=123)
    with open(path, newline="", encoding="ascii") as handle:
        reader = csv.reader(handle)
        next(reader)
        boards = [parse_cards(row[0], 5) for row in reader]
    total = Counter(code for board in boards for code in board)
    n, p = 5 * deals, 1 / 52
    mean, sd = n * p, math.sqrt(n * p * (1 - p))
    assert set(total) == set(range(52))
    worst = max(abs(count - mean) for count in total.values())
    assert worst < 5 * sd, f"a card is {worst / sd:.1f} standard deviations off uniform"
    # Each board position on its own, too: a biased shuffle shows up by position.
    n = deals
    mean, sd = n * p, math.sqrt(n * p * (1 - p))
    for position in range(5):
        counts = Counter(board[position] for board in boards)
        assert max(abs(counts[code] - mean) for code in range(52)) < 5 * sd, position
