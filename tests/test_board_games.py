"""Omaha, Omaha hi-lo and short-deck as games: deals written as text in, winners out.

The winners of random deals are checked against pokerkit's hand classes and
against the rules written plainly (:mod:`tests.rules`, the Omaha references
of :mod:`tests.test_omaha_keys`); the deals' reasons, the detection of Omaha
from its cards, ``generate`` and ``run`` end to end.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pyarrow as pa
import pytest

from pipeline.errors import UsageError
from pipeline.games import registry
from pipeline.poker import cards

from .rules import short_deck_value as short_value
from .test_omaha_keys import low_strength, reference_high, reference_low


def random_deals(n: int, players: int, hole: int, seed: int, deck: list[int] | None = None,
                 empty: float = 0.2) -> tuple[pa.Table, list[list[int]], list[list[list[int] | None]]]:
    """n deals of ``players`` seats as a text table (some seats empty), with their codes."""
    rng = np.random.default_rng(seed)
    codes = np.arange(52) if deck is None else np.array(deck)
    boards, holes = [], []
    for _ in range(n):
        dealt = rng.permutation(codes)[:5 + hole * players].tolist()
        seats: list[list[int] | None] = [dealt[5 + hole * s:5 + hole * (s + 1)] for s in range(players)]
        for s in range(players):
            if rng.random() < empty:
                seats[s] = None
        if all(seat is None for seat in seats):
            seats[0] = dealt[5:5 + hole]
        boards.append(dealt[:5])
        holes.append(seats)

    def text(hand: list[int] | None) -> str | None:
        return None if hand is None else " ".join(str(cards.CARD_TEXT[c]) for c in hand)

    table = pa.table({"board": [text(b) for b in boards],
                      **{f"p{s + 1}": [text(h[s]) for h in holes] for s in range(players)}})
    return table, boards, holes


def score(game: str, table: pa.Table, **options) -> dict[str, list]:
    scored = registry.get(game).score(table, tuple(table.column_names), **options)
    assert scored.ok.all(), [r for r in scored.reasons if r]
    return scored.results.to_pydict()


def winners_of(strengths: list) -> str:
    """The seats (1-based) of the greatest strength, as the winners column writes them; '' for none."""
    present = [s for s in strengths if s is not None]
    if not present:
        return ""
    best = max(present)
    return " ".join(str(seat + 1) for seat, s in enumerate(strengths) if s is not None and s == best)


def pokerkit_cards(codes: list[int]) -> str:
    return "".join(str(cards.CARD_TEXT[c]) for c in codes)


# --- Omaha -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("hole, players", [(4, 6), (5, 6), (6, 7)])
def test_omaha_winners_as_pokerkit(hole, players):
    from pokerkit import OmahaHoldemHand

    table, boards, holes = random_deals(150, players, hole, seed=hole)
    got = score("omaha", table)["winners"]
    for row, (board, seats) in enumerate(zip(boards, holes)):
        theirs = [None if h is None else OmahaHoldemHand.from_game(pokerkit_cards(h), pokerkit_cards(board))
                  for h in seats]
        assert got[row] == winners_of(theirs), row


def test_omaha_winners_as_the_rules_on_two_suits():
    """Flushes are frequent on two suits: the two-and-three rule is tested where it matters."""
    deck = [code for code in range(52) if code % 4 in (0, 3)]
    table, boards, holes = random_deals(300, 3, 4, seed=7, deck=deck)
    got = score("omaha", table)["winners"]
    for row, (board, seats) in enumerate(zip(boards, holes)):
        strengths = [None if h is None else reference_high(board, h) for h in seats]
        assert got[row] == winners_of(strengths), row


def test_a_deal_may_mix_omaha_sizes_across_rows_but_not_within():
    table = pa.table({"board": ["As Ks Qs 2d 7c"] * 2,
                      "p1": ["Ah Ad Ac Js", "Ah Ad Ac Js 9h"],
                      "p2": ["Th Td 9c 8c", "Th Td 9c 8c 8d"]})
    assert score("omaha", table)["winners"] == ["1", "1"]
    mixed = pa.table({"board": ["As Ks Qs 2d 7c"], "p1": ["Ah Ad Ac Js"], "p2": ["Th Td 9c 8c 8d"]})
    scored = registry.get("omaha").score(mixed, ("board", "p1", "p2"))
    assert scored.reasons.tolist() == [
        "p2 'Th Td 9c 8c 8d': 5 cards, where p1 holds 4: every seat of a deal holds as many"]


def test_omaha_best_five_uses_two_hole_cards():
    table = pa.table({"board": ["As Ks Qs 2d 7c"], "p1": ["Ah Ad Ts Js"]})
    result = score("omaha", table, best_five=True)
    assert result["p1_best"] == ["As Ks Qs Js Ts"]
    assert result["p1_hand"] == ["Royal Flush"]


# --- Omaha hi-lo -----------------------------------------------------------------------------------

@pytest.mark.parametrize("hole", [4, 5, 6])
def test_hilo_halves_as_pokerkit(hole):
    from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand

    # A deck of low ranks and two high ones: most deals have a low, many tie.
    deck = [code for code in range(52) if code // 4 in (0, 1, 2, 3, 4, 5, 6, 12, 10, 11)]
    table, boards, holes = random_deals(150, 4, hole, seed=40 + hole, deck=deck)
    got = score("omaha-hilo", table)

    def low(hand: list[int], board: list[int]):
        try:  # pokerkit raises where five cards make no low; its lows compare larger as better
            return OmahaEightOrBetterLowHand.from_game(pokerkit_cards(hand), pokerkit_cards(board))
        except ValueError:
            return None

    lows_seen = 0
    for row, (board, seats) in enumerate(zip(boards, holes)):
        highs = [None if h is None else OmahaHoldemHand.from_game(pokerkit_cards(h), pokerkit_cards(board))
                 for h in seats]
        lows = [None if h is None else low(h, board) for h in seats]
        high_text, low_text = winners_of(highs), winners_of(lows)
        assert got["winners_high"][row] == high_text, row
        assert got["winners_low"][row] == (low_text or None), row
        receivers = sorted({int(s) for s in (high_text + " " + low_text).split()})
        assert got["winners"][row] == " ".join(map(str, receivers)), row
        lows_seen += bool(low_text)
    assert lows_seen > 30  # the test saw lows, not only scoops


def test_hilo_low_keys_as_the_rules():
    deck = [code for code in range(52) if code // 4 in (0, 1, 2, 3, 4, 5, 6, 12, 11)]
    table, boards, holes = random_deals(200, 3, 4, seed=3, deck=deck, empty=0.0)
    got = score("omaha-hilo", table)
    for row, (board, seats) in enumerate(zip(boards, holes)):
        strengths = [low_strength(reference_low(board, h)) for h in seats]
        keys = [got[f"p{s + 1}_low_key"][row] for s in range(3)]
        # No low is null; otherwise a higher key is a better low, as the rule's order says.
        assert [k is None for k in keys] == [s == (0,) for s in strengths], row
        for a, b in combinations(range(3), 2):
            if keys[a] is not None and keys[b] is not None:
                assert (keys[a] > keys[b]) == (strengths[a] > strengths[b]), row
                assert (keys[a] == keys[b]) == (strengths[a] == strengths[b]), row


def test_hilo_without_a_low_the_high_scoops():
    table = pa.table({"board": ["Ks Qd Jh 9c 9d"], "p1": ["As 2c 3h 4d"], "p2": ["Kh Kd Tc 2s"]})
    got = score("omaha-hilo", table, best_five=True)
    assert (got["winners"], got["winners_high"], got["winners_low"]) == (["2"], ["2"], [None])
    assert got["p1_low_key"] == [None] and got["p1_low_hand"] == [None]


def test_hilo_best_low_five():
    table = pa.table({"board": ["2s 3d 8h Kc 7d"], "p1": ["As 4c Qh 2d"]})
    got = score("omaha-hilo", table, best_five=True)
    assert got["p1_low_best"] == ["7d 4c 3d 2s As"]
    assert got["p1_low_hand"] == ["Low, 7 4 3 2 A"]


# --- short-deck ------------------------------------------------------------------------------------

SHORT = list(range(16, 52))


@pytest.mark.parametrize("game, trips", [("shortdeck", False), ("shortdeck-trips", True)])
def test_shortdeck_winners_as_the_rules(game, trips):
    table, boards, holes = random_deals(200, 5, 2, seed=11, deck=SHORT)
    got = score(game, table)["winners"]
    for row, (board, seats) in enumerate(zip(boards, holes)):
        strengths = [None if h is None else max(short_value(list(f), trips_beat_straight=trips)
                                                for f in combinations(board + h, 5)) for h in seats]
        assert got[row] == winners_of(strengths), row


def test_shortdeck_winners_as_pokerkit():
    from pokerkit import ShortDeckHoldemHand

    table, boards, holes = random_deals(150, 6, 2, seed=12, deck=SHORT)
    got = score("shortdeck", table)["winners"]
    for row, (board, seats) in enumerate(zip(boards, holes)):
        theirs = [None if h is None else
                  ShortDeckHoldemHand.from_game(pokerkit_cards(h), pokerkit_cards(board)) for h in seats]
        assert got[row] == winners_of(theirs), row


def test_a_card_below_the_six_is_refused_with_its_reason():
    table = pa.table({"board": ["As Ks Qs 6d 7c", "As Ks Qs 6d 7c"], "p1": ["5h 9d", "8h 9d"]})
    scored = registry.get("shortdeck").score(table, ("board", "p1"))
    assert scored.reasons.tolist() == ["p1 '5h 9d': card 5h is not in the 36-card deck, 6 to A", None]


# --- detection, generate and run ---------------------------------------------------------------------

def test_omaha_is_told_from_its_cards_and_the_others_only_named():
    assert registry.detect("a.csv", ("board", "p1"), hole_cards=4).name == "omaha"
    assert registry.detect("a.csv", ("board", "p1"), hole_cards=2).name == "holdem"
    assert not registry.get("omaha-hilo").detectable and not registry.get("shortdeck").detectable


@pytest.mark.parametrize("game, hole, players", [("omaha", 6, 7), ("omaha-hilo", 4, 10),
                                                 ("shortdeck", None, 10), ("holdem", None, 3)])
def test_generate_deals_the_games_own_cards(tmp_path, game, hole, players):
    from pipeline.runs.generate import generate

    path = tmp_path / "deals.parquet"
    generate(path, game=game, rows=500, players=players, seed=1, hole_cards=hole)
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    played = registry.get(game)
    scored = played.score(table, tuple(table.column_names))
    assert scored.ok.all()
    seat_cards = {len(text.split()) for text in table.column("p1").to_pylist()}
    assert seat_cards == {hole or 2}
    dealt = {cards.card_code(card) for column in table.columns for text in column.to_pylist()
             for card in text.split()}
    assert dealt <= set(played.deck().tolist())


def test_generate_refuses_more_players_than_the_deck_holds(tmp_path):
    from pipeline.runs.generate import generate

    with pytest.raises(UsageError, match="at most 7 players"):
        generate(tmp_path / "d.csv", game="omaha", rows=1, players=8, hole_cards=6)
    with pytest.raises(UsageError, match="4, 5 or 6 hole cards"):
        generate(tmp_path / "d.csv", game="omaha", rows=1, players=2, hole_cards=3)
    with pytest.raises(UsageError, match="no hole cards to choose"):
        generate(tmp_path / "d.csv", game="larvis", rows=1, players=2, hole_cards=4)
    assert not (tmp_path / "d.csv").exists()


def test_run_detects_an_omaha_archive(tmp_path):
    from pipeline.runs.api import run
    from pipeline.runs.generate import generate

    path = tmp_path / "plo.csv"
    generate(path, game="omaha", rows=300, players=4, seed=2)
    summary = run([path], tmp_path / "out")
    assert summary["game"] == "omaha"
    assert summary["rows_scored"] == 300


def test_shortdeck_best_five_rescores_to_the_key():
    from pipeline.poker import shortdeck

    table, _, _ = random_deals(200, 4, 2, seed=13, deck=SHORT)
    got = score("shortdeck-trips", table, best_five=True)
    for seat in range(1, 5):
        rows = [row for row, best in enumerate(got[f"p{seat}_best"]) if best is not None]
        five = [[cards.card_code(card) for card in got[f"p{seat}_best"][row].split()] for row in rows]
        keys = shortdeck.hand_keys(five, trips_beat_straight=True).tolist()
        assert keys == [got[f"p{seat}_key"][row] for row in rows]
        assert all(got[f"p{seat}_hand"][row].startswith(got[f"p{seat}_category"][row])
                   or got[f"p{seat}_hand"][row] == "Royal Flush" for row in rows)


def test_more_omaha_players_than_the_deck_holds_are_refused_with_their_count():
    seats = {f"p{s}": ["2c 3c 4c 5c 6c"] for s in range(1, 11)}
    table = pa.table({"board": ["As Ks Qs 2d 7c"], **seats})
    scored = registry.get("omaha").score(table, tuple(table.column_names))
    assert scored.reasons.tolist() == [
        "10 players of 5 hole cards and a board of 5 take 55 cards, and the deck has 52"]
