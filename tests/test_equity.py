"""`pokerpipe equity`: equities against a reference written from the rules, sampling, files and bad input."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from itertools import combinations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from pipeline.cli import cli
from pipeline.errors import InputError
from pipeline.games.deals import BOARD_SIZES, HOLDEM, Deals, parse_deals
from pipeline.poker import cards, holdem
from pipeline.runs import equity

from .conftest import RAW
from .rules import best_value, five_card_value

RANKS = "23456789TJQKA"
DECK = [r + s for r in RANKS for s in "cdhs"]


# --- the reference: the rules of hold'em, written plainly ----------------------

def reference_equity(board: list[str], hands: list[list[str]]) -> list[Fraction]:
    """Every run-out, every seat: a win counts 1, a k-way split 1/k."""
    live = [card for card in DECK if card not in board and not any(card in hand for hand in hands)]
    shares = [Fraction(0)] * len(hands)
    runouts = list(combinations(live, 5 - len(board)))
    for runout in runouts:
        values = [best_value(board + list(runout) + hand) for hand in hands]
        top = max(values)
        winners = [seat for seat, value in enumerate(values) if value == top]
        for seat in winners:
            shares[seat] += Fraction(1, len(winners))
    return [share / len(runouts) for share in shares]


def random_deal(rng: random.Random, board_size: int, players: int) -> tuple[list[str], list[list[str]]]:
    dealt = rng.sample(DECK, board_size + 2 * players)
    return dealt[:board_size], [dealt[board_size + 2 * i:board_size + 2 * i + 2] for i in range(players)]


def parse_spots(board: pa.Array, seats: list[pa.Array]) -> Deals:
    """Deals whose board may be unfinished, as equity reads them."""
    return parse_deals(board, seats, shape=HOLDEM.with_boards(BOARD_SIZES))


def spots_of(board: list[str], hands: list[list[str] | None]) -> Deals:
    return parse_spots(pa.array([" ".join(board)]),
                       [pa.array([" ".join(hand) if hand else None], pa.string()) for hand in hands])


def test_reference_ranks_the_categories():
    # The reference itself, on hands whose order every player knows.
    order = [("7c", "5d", "4h", "3s", "2c"), ("2c", "2d", "4h", "5s", "7c"), ("2c", "2d", "4h", "4s", "7c"),
             ("2c", "2d", "2h", "4s", "7c"), ("Ac", "2d", "3h", "4s", "5c"), ("2c", "3d", "4h", "5s", "6c"),
             ("2c", "4c", "5c", "6c", "8c"), ("2c", "2d", "2h", "4s", "4c"), ("2c", "2d", "2h", "2s", "4c"),
             ("Ac", "2c", "3c", "4c", "5c"), ("Ts", "Js", "Qs", "Ks", "As")]
    values = [five_card_value(hand) for hand in order]
    assert values == sorted(values) and len(set(values)) == len(values)


# --- exact equity against the reference ------------------------------------------

TIES = [
    # A straight on the board: both play it, the pot is split on most run-outs.
    (["Ts", "Jd", "Qc", "Kh"], [["2c", "3d"], ["2h", "3s"]]),
    # Three players with the same hand ranks: three-way splits.
    (["9c", "9d", "Ks"], [["Ac", "4h"], ["Ad", "4s"], ["Ah", "4c"]]),
    # Royal flush on the board: everyone splits.
    (["Ts", "Js", "Qs", "Ks", "As"], [["2c", "3d"], ["4h", "5c"], ["7d", "8h"]]),
    # A wheel against a six-high straight, and a flush draw.
    (["3c", "4d", "5h"], [["Ac", "2d"], ["6s", "2s"]]),
]


def deals_to_check() -> list[tuple[list[str], list[list[str]]]]:
    rng = random.Random(13)
    deals = list(TIES)
    deals += [random_deal(rng, 3, players) for players in (2, 3, 6)]
    deals += [random_deal(rng, 4, players) for players in (2, 3, 4, 5, 6) for _ in range(3)]
    deals += [random_deal(rng, 5, players) for players in (2, 3, 4, 5, 6) for _ in range(6)]
    return deals


@pytest.mark.parametrize("board, hands", deals_to_check(), ids=lambda value: None)
def test_exact_equity_matches_every_runout(board, hands):
    expected = reference_equity(board, hands)
    got = equity.equities(spots_of(board, hands))
    live = 52 - len(board) - 2 * len(hands)
    assert got.exact.all() and got.runouts[0] == len(list(combinations(range(live), 5 - len(board))))
    # Splits are counted in whole units, so the equity is the exact fraction rounded once.
    assert got.equity[0].tolist() == [float(share) for share in expected]
    assert np.isnan(got.se).all()


def test_many_deals_at_once_match_one_by_one():
    # A batch mixing board sizes and players equals each deal scored alone.
    rng = random.Random(5)
    deals = [random_deal(rng, rng.choice((3, 4, 5)), rng.randint(1, 6)) for _ in range(60)]
    boards = pa.array([" ".join(board) for board, _ in deals])
    seats = [pa.array([" ".join(hands[s]) if s < len(hands) else "" for _, hands in deals]) for s in range(6)]
    together = equity.equities(parse_spots(boards, seats))
    for row, (board, hands) in enumerate(deals):
        alone = equity.equities(spots_of(board, hands)).equity[0, :len(hands)]
        assert together.equity[row, :len(hands)].tolist() == alone.tolist()
        assert np.isnan(together.equity[row, len(hands):]).all()
        assert together.equity[row, :len(hands)].sum() == pytest.approx(1.0)


def test_empty_seats_keep_their_place():
    board, hands = ["Ah", "Kd", "2c"], [["As", "Ad"], None, ["Qs", "Js"]]
    got = equity.equities(spots_of(board, hands)).equity[0]
    expected = reference_equity(board, [hands[0], hands[2]])
    assert got[0] == float(expected[0]) and np.isnan(got[1]) and got[2] == float(expected[1])


def test_exact_preflop_matches_hand_keys_over_every_runout():
    # Heads-up preflop, 1,712,304 run-outs: scored again plainly with hand_keys on all seven cards.
    hands = [["Ah", "As"], ["Kd", "Kc"]]
    got = equity.equities(spots_of([], hands), exact=True)
    codes = [[cards.card_code(card) for card in hand] for hand in hands]
    live = np.array([code for code in range(52) if all(code not in hand for hand in codes)], dtype=np.uint8)
    runouts = live[np.array(list(combinations(range(len(live)), 5)), dtype=np.uint8)]
    keys = [holdem.hand_keys(np.column_stack([runouts, np.tile(hand, (len(runouts), 1))])) for hand in codes]
    first = (keys[0] > keys[1]).sum() + (keys[0] == keys[1]).sum() / 2
    assert got.runouts[0] == len(runouts) == 1_712_304 and got.exact[0]
    assert got.equity[0, 0] == pytest.approx(first / len(runouts), abs=1e-12)


# --- Monte Carlo -------------------------------------------------------------------

PREFLOP = [[["Ah", "As"], ["Kd", "Kc"]], [["Ac", "Kc"], ["2d", "2h"]], [["7c", "2d"], ["Ah", "Kd"]],
           [["Js", "Ts"], ["Ah", "Qd"]]]


@pytest.mark.parametrize("hands", PREFLOP)
def test_monte_carlo_is_within_four_standard_errors_of_exact(hands):
    spots = spots_of([], hands)
    exact = equity.equities(spots, exact=True).equity[0]
    sampled = equity.equities(spots, samples=20_000, seed=3)
    assert not sampled.exact[0] and sampled.runouts[0] == 20_000
    se = sampled.se[0]
    assert (se > 0).all() and (se < 0.004).all()  # about sqrt(p (1 - p) / 20,000)
    assert (np.abs(sampled.equity[0] - exact) <= 4 * se).all()
    assert sampled.equity[0].sum() == pytest.approx(1.0)


def test_same_seed_same_numbers_whatever_the_batch():
    hands = [["Ah", "As"], ["Kd", "Kc"]]
    alone = equity.equities(spots_of([], hands), samples=5000, seed=7)
    again = equity.equities(spots_of([], hands), samples=5000, seed=7)
    other = equity.equities(spots_of([], hands), samples=5000, seed=8)
    assert alone.equity.tolist() == again.equity.tolist() and alone.se.tolist() == again.se.tolist()
    assert alone.equity.tolist() != other.equity.tolist()
    batch = parse_spots(pa.array(["Qs Jh 2c", "", ""]),
                        [pa.array(["2c 3c", "Ah As", "Qd Qh"]), pa.array(["4d 5d", "Kd Kc", "Jc Tc"])])
    together = equity.equities(batch, samples=5000, seed=7)
    assert together.equity[1].tolist() == alone.equity[0].tolist()
    assert together.exact.tolist() == [True, False, False]


def test_same_seed_same_numbers_whatever_the_chunk():
    # Three sample blocks' worth, scored in chunks aligned with the blocks, astride them, and whole.
    batch = parse_spots(pa.array(["", "", "", "Qs Jh 2c"]),
                               [pa.array(["Ah As", "7c 2d", "Js Ts", "2c 3c"]),
                                pa.array(["Kd Kc", "Ah Kd", "Ah Qd", "4d 5d"]),
                                pa.array([None, "9h 9d", None, "Kh Kc"])])
    samples = 2 * equity.SAMPLE_BLOCK + 1234
    results = [equity.equities(batch, samples=samples, seed=11, chunk=chunk)
               for chunk in (equity.CHUNK, 5_000, equity.SAMPLE_BLOCK, samples, 999)]
    first = results[0]
    assert first.runouts.tolist() == [samples] * 3 + [903]  # C(43, 2) flop run-outs, three players
    for other in results[1:]:
        np.testing.assert_array_equal(other.equity, first.equity)  # exact equality: the same draws
        np.testing.assert_array_equal(other.se, first.se)
    assert equity.equities(batch, samples=samples, seed=12).equity.tolist() != first.equity.tolist()


def test_progress_counts_every_runout_of_every_deal():
    batch = parse_spots(pa.array(["", "Qs Jh 2c"]), [pa.array(["Ah As", "2c 3c"]),
                                                            pa.array(["Kd Kc", "4d 5d"])])
    seen: list[tuple[int, int]] = []
    equity.equities(batch, samples=50_000, chunk=20_000,
                    on_progress=lambda done, total: seen.append((done, total)))
    assert len(seen) > 3 and seen[-1] == (50_000 + 990, 50_000 + 990)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_more_samples_than_sums_can_hold_exactly_are_refused(runner):
    with pytest.raises(ValueError, match="samples must be 2 to 1,000,000,000,000"):
        equity.equities(parse_spots(pa.array([""]), [pa.array(["Ah As"])]), samples=10 ** 12 + 1)
    result = runner.invoke(cli, ["equity", "--hand", "AhAs", "--hand", "KdKc", "--samples", str(10 ** 13)])
    assert result.exit_code == 2 and "more than 1,000,000,000,000" in result.output


def test_random_picks_are_uniform_five_subsets():
    picks = equity._random_picks(8, 56_000, seed=1)
    assert (np.diff(picks.astype(int), axis=1) > 0).all() and picks.max() < 8
    counts = Counter(map(tuple, picks.tolist()))
    assert len(counts) == 56  # C(8, 5): every subset drawn
    expected = 56_000 / 56
    chi2 = sum((count - expected) ** 2 / expected for count in counts.values())
    assert chi2 < 110  # 55 degrees of freedom: p < 1e-5 beyond


# --- parsing ------------------------------------------------------------------------

@pytest.mark.parametrize("board, seats, reason", [
    ("Ah Kd", ["As Ad"], "board 'Ah Kd': 2 cards, expected 0, 3, 4 or 5"),
    ("Ah Kd 2c 3s 4s 5s", ["As Ad"], "6 cards, expected 0, 3, 4 or 5"),
    ("Ah Kd 2x", ["As Ad"], "unknown card '2x'"),
    ("Ah Kd 2c", ["Ah Ad"], "card Ah is dealt twice"),
    ("Ah Kd 2c", ["As Ad", "Qs Ad"], "card Ad is dealt twice"),
    ("Ah Kd 2c", [None, ""], "no player"),
    (None, ["As"], "p1 'As': 1 cards, expected 2"),
])
def test_bad_deals_are_rejected_with_a_reason(board, seats, reason):
    spots = parse_spots(pa.array([board], pa.string()), [pa.array([s], pa.string()) for s in seats])
    assert reason in spots.reasons[0]


def test_boards_with_loose_whitespace_and_x_for_ten():
    spots = parse_spots(pa.array(["  Xh\tJd  Qc ", None, "Th Jd Qc"]), [pa.array(["As Ad"] * 3)])
    assert spots.reasons.tolist() == [None, None, None]
    assert spots.board_size.tolist() == [3, 0, 3]
    assert spots.board[0].tolist() == spots.board[2].tolist()


# --- the command line ---------------------------------------------------------------

def test_one_off_prints_one_line_per_hand(runner):
    result = runner.invoke(cli, ["equity", "--hand", "AhAs", "--hand", "Kd Kc", "--board", "Qs Jh 2c"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    expected = reference_equity(["Qs", "Jh", "2c"], [["Ah", "As"], ["Kd", "Kc"]])
    assert lines == [f"Ah As  {float(expected[0]):.4f}", f"Kd Kc  {float(expected[1]):.4f}"]


def test_one_off_preflop_shows_the_standard_error(runner):
    result = runner.invoke(cli, ["equity", "--hand", "AhAs", "--hand", "KdKc", "--samples", "2000"])
    assert result.exit_code == 0, result.output
    assert [line.split()[3] for line in result.stdout.splitlines()] == ["±", "±"]


@pytest.mark.parametrize("args, message", [
    (["--hand", "AhAx", "--hand", "KdKc"], "unknown card 'Ax'"),
    (["--hand", "AhAs", "--hand", "AhKc"], "card Ah is dealt twice"),
    (["--hand", "AhAs", "--hand", "KdKc", "--board", "Qs Jh"], "2 cards, expected 0, 3, 4 or 5"),
    # An archive's seat may be empty; a hand given on the command line may not (it printed nan).
    (["--hand", "", "--hand", "KdKc"], "p1 is empty"),
    (["--hand", "AhAs", "--hand", " "], "p2 is empty"),
    # A byte that is not UTF-8 reaches Python as a surrogate escape (it stopped with a traceback).
    (["--hand", "Ah\udcffAs", "--hand", "KdKc"], "p1 'Ah\\udcffAs': unknown card"),
    (["--hand", "AhAs", "--hand", "KdKc", "--board", "Qs Jh 2\udcff"],
     "board 'Qs Jh 2\\udcff': unknown card"),
])
def test_one_off_bad_cards_exit_2(runner, args, message):
    result = runner.invoke(cli, ["equity", *args])
    assert result.exit_code == 2 and message in result.output


@pytest.mark.parametrize("hands, board, message", [
    ([None, "KdKc"], "", "p1 is NoneType, not text"),
    ([b"AhAs", "KdKc"], "", "p1 is bytes, not text"),
    (["AhAs", "KdKc"], None, "board is NoneType, not text"),
    ("AhAs", "", "give a list of hands"),  # was read as four hands of one letter
])
def test_deal_equity_refuses_what_is_not_text(hands, board, message):
    with pytest.raises(InputError, match=message):
        equity.deal_equity(hands, board)


def test_inputs_or_hands_not_both(runner, tmp_path):
    assert runner.invoke(cli, ["equity", "--hand", "AhAs", str(tmp_path)]).exit_code == 2
    assert runner.invoke(cli, ["equity", str(tmp_path)]).exit_code == 2


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_archive_equity_rejects_and_summary(runner, tmp_path, write_csv, fmt):
    path = write_csv("spots.csv", "board,p1,p2,p3\n"
                                  "Qs Jh 2c,Ah As,Kd Kc,\n"
                                  "Qs Jh,Ah As,Kd Kc,\n"
                                  "Qs Jh 2c 3d,Ah As,,Kd Kc\n"
                                  "Ts Js Qs Ks As,2c 3d,4h 5c,7d 8h\n"
                                  ",Ah As,Kd Kc,\n"
                                  "Qs Jh 2c,Ah Qs,Kd Kc,\n")
    out = tmp_path / "out"
    result = runner.invoke(cli, ["equity", str(path), "-o", str(out), "--format", fmt, "--samples", "3000"])
    assert result.exit_code == 0, result.output
    table = pd.read_csv(out / "equity.csv") if fmt == "csv" else pd.read_parquet(out / f"equity.{fmt}")
    assert table["row"].tolist() == [1, 3, 4, 5]
    assert table["runouts"].tolist() == [990, 44, 1, 3000]
    assert table["exact"].tolist() == [True, True, True, False]
    flop = reference_equity(["Qs", "Jh", "2c"], [["Ah", "As"], ["Kd", "Kc"]])
    turn = reference_equity(["Qs", "Jh", "2c", "3d"], [["Ah", "As"], ["Kd", "Kc"]])
    assert table.loc[0, ["p1_equity", "p2_equity"]].tolist() == [float(share) for share in flop]
    assert table.loc[1, "p1_equity"] == float(turn[0]) and table.loc[1, "p3_equity"] == float(turn[1])
    assert pd.isna(table.loc[1, "p2_equity"]) and pd.isna(table.loc[0, "p3_equity"])
    assert table.loc[2, ["p1_equity", "p2_equity", "p3_equity"]].tolist() == [1 / 3] * 3
    assert table["p1_equity_se"].isna().tolist() == [True, True, True, False]
    rejects = pd.read_csv(out / "rejects.csv")
    assert rejects["row"].tolist() == [2, 6]
    assert "expected 0, 3, 4 or 5" in rejects.loc[0, "reason"] and "dealt twice" in rejects.loc[1, "reason"]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["rows_read"] == 6 == summary["rows_scored"] + summary["rows_rejected"]
    assert summary["deals"] == {"exact": 3, "sampled": 1}
    assert "row 2 (line 3)" in result.output


def test_archive_equity_is_the_same_in_any_batch_size(tmp_path, write_csv):
    rng = random.Random(2)
    lines = ["board,p1,p2,p3"]
    for _ in range(40):
        board, hands = random_deal(rng, rng.choice((0, 3, 4, 5)), 3)
        lines.append(",".join([" ".join(board)] + [" ".join(hand) for hand in hands]))
    path = write_csv("deals.csv", "\n".join(lines) + "\n")
    tables = []
    for batch_rows in (7, 1000):
        out = tmp_path / f"out{batch_rows}"
        equity.EquityRun([path], out, samples=500, seed=4, batch_rows=batch_rows).execute()
        tables.append(pd.read_csv(out / "equity.csv"))
    pd.testing.assert_frame_equal(tables[0], tables[1])
    assert tables[0]["row"].tolist() == list(range(1, 41))


def test_phh_histories_are_refused(runner, tmp_path):
    result = runner.invoke(cli, ["equity", str(RAW / "phh"), "-o", str(tmp_path / "out")])
    assert result.exit_code == 1 and "not hand histories" in result.output


def test_a_larvis_file_is_refused(runner, tmp_path, write_csv):
    path = write_csv("games.csv", "Hand1,Hand2\nAAAQQ,QQAAA\n")
    result = runner.invoke(cli, ["equity", str(path), "-o", str(tmp_path / "out")])
    assert result.exit_code == 1 and "board column" in result.output
    assert not (tmp_path / "out" / "summary.json").exists()


def test_outputs_are_published_as_one_set(runner, tmp_path, write_csv):
    good = write_csv("good.csv", "board,p1,p2\nQs Jh 2c,Ah As,Kd Kc\n")
    out = tmp_path / "out"
    assert runner.invoke(cli, ["equity", str(good), "-o", str(out), "--format", "parquet"]).exit_code == 0
    assert sorted(path.name for path in out.iterdir()) == ["equity.parquet", "rejects.csv", "summary.json"]
    # A second run replaces the whole set: no equity.parquet left beside the new equity.csv.
    assert runner.invoke(cli, ["equity", str(good), "-o", str(out)]).exit_code == 0
    assert sorted(path.name for path in out.iterdir()) == ["equity.csv", "rejects.csv", "summary.json"]
    # A folder holding anything else is refused before any input is read, and left as it was.
    (out / "notes.txt").write_text("mine")
    result = runner.invoke(cli, ["equity", str(good), "-o", str(out)])
    assert result.exit_code == 2 and "notes.txt" in result.output
    assert (out / "notes.txt").read_text() == "mine" and (out / "equity.csv").exists()
