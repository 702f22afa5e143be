"""Equity of Omaha, Omaha hi-lo and short-deck deals against every run-out scored by the rules.

The references enumerate the cards still to come with itertools and score
each finished board with the rules written plainly (:mod:`tests.rules`, the
Omaha references of :mod:`tests.test_omaha_keys`, the short-deck rule of
:mod:`tests.test_board_games`), then share the pot as the game does.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pytest

from pipeline.errors import InputError, UsageError
from pipeline.games import registry
from pipeline.games.deals import BOARD_SIZES, parse_deals
from pipeline.poker import cards
from pipeline.runs.equity import EquityRun, deal_equity, equities

from .rules import short_deck_value as short_value
from .test_omaha_keys import low_strength, reference_high, reference_low


def text(codes) -> str:
    return " ".join(str(cards.CARD_TEXT[c]) for c in codes)


def winners(strengths: list) -> list[int]:
    best = max(strengths)
    return [seat for seat, s in enumerate(strengths) if s == best]


def reference_equity(game: str, board: list[int], holes: list[list[int]], deck: list[int]) -> list[Fraction]:
    """Each seat's share of the pot over every run-out, by the game's rules."""
    dead = set(board) | {card for hole in holes for card in hole}
    live = [card for card in deck if card not in dead]
    shares = [Fraction(0)] * len(holes)
    runouts = list(combinations(live, 5 - len(board)))
    for runout in runouts:
        full = board + list(runout)
        if game == "shortdeck":
            strengths = [max(short_value(list(f), trips_beat_straight=False)
                             for f in combinations(full + h, 5)) for h in holes]
            halves = [winners(strengths)]
        else:
            halves = [winners([reference_high(full, h) for h in holes])]
            if game == "omaha-hilo":
                lows = [low_strength(reference_low(full, h)) for h in holes]
                if max(lows) != (0,):  # a qualifying low takes half the pot
                    halves.append(winners(lows))
        for half in halves:
            for seat in half:
                shares[seat] += Fraction(1, len(halves) * len(half))
    return [share / len(runouts) for share in shares]


def dealt(seed: int, deck: list[int], board: int, hole: int,
          players: int) -> tuple[list[int], list[list[int]]]:
    picked = np.random.default_rng(seed).permutation(deck)[:board + hole * players].tolist()
    return picked[:board], [picked[board + hole * s:board + hole * (s + 1)] for s in range(players)]


def ours(game: str, board: list[int], holes: list[list[int]]) -> np.ndarray:
    played = registry.get(game)
    deals = parse_deals(pa.array([text(board)]), [pa.array([text(h)]) for h in holes],
                        shape=played.shape.with_boards(BOARD_SIZES))
    assert deals.reasons[0] is None, deals.reasons[0]
    return equities(deals, game=played).equity[0]


@pytest.mark.parametrize("game, hole, board, players, seed", [
    ("omaha", 4, 4, 3, 1), ("omaha", 5, 4, 2, 2), ("omaha", 6, 3, 2, 3), ("omaha", 4, 3, 2, 4),
    ("omaha-hilo", 4, 4, 3, 5), ("omaha-hilo", 4, 3, 2, 6), ("omaha-hilo", 5, 4, 4, 7),
])
def test_omaha_equity_is_every_runout_by_the_rules(game, hole, board, players, seed):
    # A deck of low ranks and a few high ones: lows, ties and split halves are frequent.
    deck = [code for code in range(52) if code // 4 in (0, 1, 2, 3, 4, 5, 6, 12, 9, 10, 11)]
    board_cards, holes = dealt(seed, deck if game == "omaha-hilo" else list(range(52)), board, hole, players)
    want = reference_equity(game, board_cards, holes, list(range(52)))
    got = ours(game, board_cards, holes)
    assert got.tolist() == pytest.approx([float(share) for share in want], abs=1e-12)
    assert sum(want) == 1


@pytest.mark.parametrize("board, players, seed", [(4, 3, 8), (3, 2, 9), (4, 5, 10)])
def test_shortdeck_equity_is_every_runout_by_the_rules(board, players, seed):
    deck = list(range(16, 52))
    board_cards, holes = dealt(seed, deck, board, 2, players)
    want = reference_equity("shortdeck", board_cards, holes, deck)
    got = ours("shortdeck", board_cards, holes).tolist()
    assert got == pytest.approx([float(s) for s in want], abs=1e-12)


def test_sampled_preflop_omaha_is_near_every_runout():
    hands = ["As Ah Ks Kh", "Qd Jd Td 9c"]
    exact = deal_equity(hands, exact=True)
    sampled = deal_equity(hands, samples=20_000, seed=3)
    assert exact.exact[0] and not sampled.exact[0] and int(exact.runouts[0]) == 1_086_008  # C(44, 5)
    assert (np.abs(sampled.equity[0] - exact.equity[0]) < 4 * sampled.se[0]).all()
    assert deal_equity(hands, samples=20_000, seed=3).equity.tolist() == sampled.equity.tolist()


def test_the_hand_tells_omaha_and_the_game_is_named_otherwise():
    omaha = deal_equity(["As 2s 3d Kh", "Kd Kc Qh Jh"], "4c 5h 9d")
    hilo = deal_equity(["As 2s 3d Kh", "Kd Kc Qh Jh"], "4c 5h 9d", game="omaha-hilo")
    # The wheel draw wins more pots high than it keeps in hi-lo, where the kings take half back.
    assert omaha.equity[0].sum() == pytest.approx(1) and hilo.equity[0].sum() == pytest.approx(1)
    assert hilo.equity[0, 0] != omaha.equity[0, 0]
    with pytest.raises(UsageError, match="and Larvis has none"):
        deal_equity(["As Ks", "Qd Qc"], game="larvis")
    with pytest.raises(InputError, match="card 5h is not in the 36-card deck"):
        deal_equity(["As Ks", "5h 6c"], game="shortdeck")


def test_an_omaha_archive_runs_by_its_cards(tmp_path):
    path = tmp_path / "plo.csv"
    path.write_text("board,p1,p2\nAh Kd 2c,As Ad Qh Jh,Ks Kc 9d 8d\n2h 3h 4h 5s,Ac Kc 7d 7s,6h 6d Qs Js\n")
    summary = EquityRun([path], tmp_path / "out").execute()
    assert summary["game"] == "omaha" and summary["rows_scored"] == 2
    table = pacsv.read_csv(tmp_path / "out" / "equity.csv")
    rows = [[table.column(f"p{seat}_equity")[row].as_py() for seat in (1, 2)] for row in range(2)]
    assert rows[0] == pytest.approx(ours("omaha", [cards.card_code(c) for c in "Ah Kd 2c".split()],
                                         [[cards.card_code(c) for c in "As Ad Qh Jh".split()],
                                          [cards.card_code(c) for c in "Ks Kc 9d 8d".split()]]).tolist())
    assert all(sum(row) == pytest.approx(1) for row in rows)


def test_equity_refuses_inputs_of_two_games(tmp_path):
    (tmp_path / "a.csv").write_text("board,p1,p2\nAh Kd 2c,As Ad,Ks Kc\n")
    (tmp_path / "b.csv").write_text("board,p1,p2\nAh Kd 2c,As Ad Qh Jh,Ks Kc 9d 8d\n")
    with pytest.raises(InputError, match="inputs mix games"):
        EquityRun([tmp_path / "a.csv", tmp_path / "b.csv"], tmp_path / "out")
