"""Player statistics on hands built by hand, each answer worked out in the test from the rules.

Every hand below is written as its actions, replayed and turned into the hand tables as a format's
hands are; each seat's counts are then checked against what the definitions give, worked out
here by hand.  A count not listed for a seat must be 0, but ``hands`` (1) and
``vpip_opportunities`` (1, but for the big blind's walk).
"""

from __future__ import annotations

import pyarrow as pa
import pytest

from pipeline.hands import model
from pipeline.hands import players as stats
from pipeline.hands.audit import settle
from pipeline.hands.model import Action as A
from pipeline.hands.tables import tables

from .conftest import RAW
from .hand_records import Hand, record_of

PRE, FLOP, TURN, RIVER = 0, 1, 2, 3
BOARD = "2c 7d 9h Js 3s"

HANDS = {
    # Three players, everyone folds to the big blind: a walk, and two chances to steal not taken.
    "walk": Hand([100, 100, 100], [(1, A.POST_SMALL_BLIND, PRE, 1), (2, A.POST_BIG_BLIND, PRE, 2),
                                   (0, A.FOLD, PRE, None), (1, A.FOLD, PRE, None)],
                 button=0, received={2: 2.0}),  # the big blind's uncalled chip comes back
    # Four players: the cutoff opens (a steal), the button 3-bets, the blinds fold, the opener folds.
    "three-bet": Hand([100, 100, 100, 100], [
        (1, A.POST_SMALL_BLIND, PRE, 1), (2, A.POST_BIG_BLIND, PRE, 2), (3, A.RAISE, PRE, 6),
        (0, A.RAISE, PRE, 18), (1, A.FOLD, PRE, None), (2, A.FOLD, PRE, None), (3, A.FOLD, PRE, None)],
        button=0, received={0: 15.0}),
    # The button opens, the small blind 3-bets, the big blind folds, the button 4-bets, the blind folds.
    "four-bet": Hand([100, 100, 100], [
        (1, A.POST_SMALL_BLIND, PRE, 1), (2, A.POST_BIG_BLIND, PRE, 2), (0, A.RAISE, PRE, 6),
        (1, A.RAISE, PRE, 18), (2, A.FOLD, PRE, None), (0, A.RAISE, PRE, 50), (1, A.FOLD, PRE, None)],
        button=0, received={0: 38.0}),
    # The button steals, the big blind calls; a c-bet called; checks; the blind bets the river and
    # is called; the button's aces win at the showdown.
    "c-bet called": Hand([100, 100, 100], [
        (1, A.POST_SMALL_BLIND, PRE, 1), (2, A.POST_BIG_BLIND, PRE, 2), (0, A.RAISE, PRE, 6),
        (1, A.FOLD, PRE, None), (2, A.CALL, PRE, None),
        (2, A.CHECK, FLOP, None), (0, A.BET, FLOP, 6), (2, A.CALL, FLOP, None),
        (2, A.CHECK, TURN, None), (0, A.CHECK, TURN, None),
        (2, A.BET, RIVER, 10), (0, A.CALL, RIVER, None), (2, A.SHOW, RIVER, None), (0, A.SHOW, RIVER, None)],
        button=0, board=BOARD, holes={0: "Ah Ad", 2: "Kh Kd"}, received={0: 45.0}),
    # The same start; the big blind folds to the c-bet.
    "c-bet folded to": Hand([100, 100, 100], [
        (1, A.POST_SMALL_BLIND, PRE, 1), (2, A.POST_BIG_BLIND, PRE, 2), (0, A.RAISE, PRE, 6),
        (1, A.FOLD, PRE, None), (2, A.CALL, PRE, None),
        (2, A.CHECK, FLOP, None), (0, A.BET, FLOP, 6), (2, A.FOLD, FLOP, None)],
        button=0, board="2c 7d 9h", received={0: 13.0}),
    # Heads-up, all in before the flop: the board is dealt, the pot split.
    "split all-in": Hand([100, 100], [
        (0, A.POST_SMALL_BLIND, PRE, 1), (1, A.POST_BIG_BLIND, PRE, 2), (0, A.RAISE, PRE, 100),
        (1, A.CALL, PRE, None), (0, A.SHOW, PRE, None), (1, A.SHOW, PRE, None)],
        button=0, board=BOARD, holes={0: "Ah Kd", 1: "As Kc"}, received={0: 100.0, 1: 100.0}),
    # A straddle: the button limps, the big blind calls, the straddler checks its option, and
    # everyone checks through to the showdown; a limp and a check are no raise.
    "straddle": Hand([100, 100, 100, 100], [
        (1, A.POST_SMALL_BLIND, PRE, 1), (2, A.POST_BIG_BLIND, PRE, 2), (3, A.POST_STRADDLE, PRE, 4),
        (0, A.CALL, PRE, None), (1, A.FOLD, PRE, None), (2, A.CALL, PRE, None), (3, A.CHECK, PRE, None),
        *[(slot, A.CHECK, street, None) for street in (FLOP, TURN, RIVER) for slot in (2, 3, 0)],
        (2, A.SHOW, RIVER, None), (3, A.SHOW, RIVER, None), (0, A.SHOW, RIVER, None)],
        button=0, board=BOARD, holes={0: "Ah Ad", 2: "Kh Kd", 3: "Qh Qd"}, received={0: 13.0}),
}

#: Per hand and slot, the counts the rules give (the others 0; hands 1; vpip_opportunities 1).
EXPECTED: dict[str, dict[int, dict[str, int]]] = {
    "walk": {0: {"steal_opportunities": 1}, 1: {"steal_opportunities": 1}, 2: {"vpip_opportunities": 0}},
    "three-bet": {
        3: {"vpip_count": 1, "pfr_count": 1, "steal_opportunities": 1, "steal_count": 1,
            "fold_to_three_bet_opportunities": 1, "fold_to_three_bet_count": 1},
        0: {"vpip_count": 1, "pfr_count": 1, "three_bet_opportunities": 1, "three_bet_count": 1},
        1: {}, 2: {}},  # the blinds faced two raises: no 3-bet chance
    "four-bet": {
        0: {"vpip_count": 1, "pfr_count": 1, "steal_opportunities": 1, "steal_count": 1,
            "fold_to_three_bet_opportunities": 1},  # a 4-bet, not a fold
        1: {"vpip_count": 1, "pfr_count": 1, "three_bet_opportunities": 1, "three_bet_count": 1},
        2: {}},
    "c-bet called": {
        0: {"vpip_count": 1, "pfr_count": 1, "steal_opportunities": 1, "steal_count": 1, "saw_flop": 1,
            "wtsd_count": 1, "showdowns": 1, "wsd_count": 1, "wwsf_count": 1, "cbet_opportunities": 1,
            "cbet_count": 1, "postflop_bets_raises": 1, "postflop_calls": 1, "postflop_actions": 2},
        1: {"three_bet_opportunities": 1},
        2: {"vpip_count": 1, "three_bet_opportunities": 1, "saw_flop": 1, "wtsd_count": 1, "showdowns": 1,
            "fold_to_cbet_opportunities": 1, "postflop_bets_raises": 1, "postflop_calls": 1,
            "postflop_actions": 2}},
    "c-bet folded to": {
        0: {"vpip_count": 1, "pfr_count": 1, "steal_opportunities": 1, "steal_count": 1, "saw_flop": 1,
            "wwsf_count": 1, "cbet_opportunities": 1, "cbet_count": 1, "postflop_bets_raises": 1,
            "postflop_actions": 1},
        1: {"three_bet_opportunities": 1},
        2: {"vpip_count": 1, "three_bet_opportunities": 1, "saw_flop": 1, "fold_to_cbet_opportunities": 1,
            "fold_to_cbet_count": 1, "postflop_folds": 1, "postflop_actions": 1}},
    "split all-in": {  # all in before the river, every card known: its result is adjusted
        0: {"vpip_count": 1, "pfr_count": 1, "steal_opportunities": 1, "steal_count": 1, "saw_flop": 1,
            "wtsd_count": 1, "showdowns": 1, "wsd_count": 1, "wwsf_count": 1, "allin_hands": 1},
        1: {"vpip_count": 1, "three_bet_opportunities": 1, "saw_flop": 1, "wtsd_count": 1, "showdowns": 1,
            "wsd_count": 1, "wwsf_count": 1, "allin_hands": 1}},
    "straddle": {
        0: {"vpip_count": 1, "steal_opportunities": 1, "saw_flop": 1, "wtsd_count": 1, "showdowns": 1,
            "wsd_count": 1, "wwsf_count": 1},
        1: {},
        2: {"vpip_count": 1, "saw_flop": 1, "wtsd_count": 1, "showdowns": 1},
        3: {"saw_flop": 1, "wtsd_count": 1, "showdowns": 1}},  # the straddler checked: not voluntary
}
#: Chips each slot won or lost, from the pots above.
NETS = {"walk": {0: 0, 1: -1, 2: 1}, "three-bet": {0: 9, 1: -1, 2: -2, 3: -6},
        "four-bet": {0: 20, 1: -18, 2: -2}, "c-bet called": {0: 23, 1: -1, 2: -22},
        "c-bet folded to": {0: 7, 1: -1, 2: -6}, "split all-in": {0: 0, 1: 0},
        "straddle": {0: 9, 1: -1, 2: -4, 3: -4}}


def hand_tables(hands: list[Hand]) -> dict[str, pa.Table]:
    settled = settle(record_of(hands))
    assert settled.audit.reason.tolist() == [None] * len(hands), "a hand of the test does not add up"
    record = settled.record
    return tables(record, settled.chips, settled.ending, keys=model.hand_key(0, record.number),
                  source=pa.array(["test"] * len(hands)))


@pytest.fixture(scope="module")
def counted() -> dict[tuple[str, int], dict]:
    """The seat rows of every hand, by (hand, slot)."""
    names = list(HANDS)
    built = hand_tables([HANDS[name] for name in names])
    rows = stats.seat_counts(built["hands"], built["seats"], built["actions"]).to_pylist()
    seats = built["seats"].to_pylist()
    assert len(rows) == len(seats)
    return {(names[(row["hand_key"] & 0xFFFFFFFF) - 1], seat["seat"] - 1): row
            for row, seat in zip(rows, seats)}


@pytest.mark.parametrize("name", list(HANDS))
def test_each_seat_counts_what_the_rules_give(counted, name):
    for slot, listed in EXPECTED[name].items():
        want = {count: 0 for count in stats.COUNTS} | {"hands": 1, "vpip_opportunities": 1} | listed
        got = {count: counted[(name, slot)][count] for count in stats.COUNTS}
        assert got == want, (name, slot)
        assert counted[(name, slot)]["net"] == NETS[name][slot], (name, slot)
    assert {slot for hand, slot in counted if hand == name} == set(EXPECTED[name])


def test_sums_by_player_are_the_sums_of_the_seats_and_merge_across_batches(counted):
    names = list(HANDS)
    built = hand_tables([HANDS[name] for name in names])
    rows = stats.seat_counts(built["hands"], built["seats"], built["actions"])
    whole = stats.player_counts(rows)
    parts = pa.concat_tables([stats.player_counts(rows.slice(0, 7)), stats.player_counts(rows.slice(7))])
    assert stats.player_counts(parts).equals(whole)
    first = whole.to_pylist()[0]
    assert first["player"] == "player 1"
    mine = [row for (hand, slot), row in counted.items() if slot == 0]
    assert first["hands"] == len(mine) == len(HANDS)
    assert first["vpip_count"] == sum(row["vpip_count"] for row in mine) == 6
    rated = stats.with_rates(whole).to_pylist()[0]
    assert rated["vpip"] == 6 / 7 and rated["steal"] == 4 / 6 and rated["fold_to_three_bet"] == 0.0
    assert rated["af"] == 2 / 1 and rated["afq"] == 2 / 3  # two bets, one call after the flop
    assert rated["net_per_100"] == 100 * sum(NETS[name][0] for name in names) / 7
    assert rated["bb_per_100"] is None  # the test's hands name no big blind


def test_pluribus_hands_against_a_count_from_the_rules():
    """VPIP, PFR and WTSD of each Pluribus player, counted here a hand at a time from the actions."""
    import tempfile
    from pathlib import Path

    import pyarrow.parquet as pq

    from pipeline.runs.runner import LocalEngine, Run

    out = Path(tempfile.mkdtemp()) / "out"
    Run([RAW / "phh" / "pluribus"], out, output_format="parquet").execute(LocalEngine(threads=1))
    built = {name: pq.read_table(out / f"{name}.parquet") for name in model.TABLES}
    summed = {row["player"]: row for row in stats.player_counts(
        stats.seat_counts(built["hands"], built["seats"], built["actions"])).to_pylist()}
    # The independent count: for each hand, who called, bet or raised before the flop.
    by_hand: dict[int, list[dict]] = {}
    for action in built["actions"].to_pylist():
        by_hand.setdefault(action["hand_key"], []).append(action)
    expected: dict[str, dict[str, int]] = {}
    boards = {hand["hand_key"]: len(hand["board"] or "") for hand in built["hands"].to_pylist()}
    for seat in built["seats"].to_pylist():
        mine = [a for a in by_hand.get(seat["hand_key"], []) if a["seat"] == seat["seat"]]
        pre = [a["action"] for a in mine if a["street"] == "preflop"]
        counts = expected.setdefault(seat["player"], {"hands": 0, "vpip": 0, "pfr": 0, "saw": 0, "wtsd": 0})
        counts["hands"] += 1
        counts["vpip"] += any(a in ("call", "bet", "raise") for a in pre)
        counts["pfr"] += any(a in ("bet", "raise") for a in pre)
        saw = boards[seat["hand_key"]] >= 8 and seat["folded_street"] != "preflop"  # "7d 5h 9d": 8 letters
        counts["saw"] += saw
        counts["wtsd"] += saw and seat["at_showdown"]
    assert set(summed) == set(expected)
    for player, counts in expected.items():
        got = summed[player]
        assert (got["hands"], got["vpip_count"], got["pfr_count"], got["saw_flop"], got["wtsd_count"]) == \
            (counts["hands"], counts["vpip"], counts["pfr"], counts["saw"], counts["wtsd"]), player
    assert sum(counts["vpip"] for counts in expected.values()) > 100  # a count worth comparing


# --- all-in EV against equities worked out here, over every run-out ---------------------------

FLOP_ALL_IN = Hand([100, 100], [
    (0, A.POST_SMALL_BLIND, PRE, 1), (1, A.POST_BIG_BLIND, PRE, 2), (0, A.CALL, PRE, None),
    (1, A.CHECK, PRE, None), (1, A.BET, FLOP, 98), (0, A.CALL, FLOP, None),
    (1, A.SHOW, FLOP, None), (0, A.SHOW, FLOP, None)],
    button=0, board=BOARD, holes={0: "Ah Ad", 1: "Kh Kd"}, received={0: 200.0})
#: Three players all in on the turn for different stacks: a main pot of 150 for all three, a side
#: pot of 100 for the two who put in 100; the river decides both.
SIDE_POT = Hand([50, 100, 100], [
    (1, A.POST_SMALL_BLIND, PRE, 1), (2, A.POST_BIG_BLIND, PRE, 2), (0, A.RAISE, PRE, 10),
    (1, A.CALL, PRE, None), (2, A.CALL, PRE, None),
    *[(slot, A.CHECK, FLOP, None) for slot in (1, 2, 0)],
    (1, A.BET, TURN, 20), (2, A.RAISE, TURN, 90), (0, A.CALL, TURN, None), (1, A.CALL, TURN, None),
    (1, A.SHOW, TURN, None), (2, A.SHOW, TURN, None), (0, A.SHOW, TURN, None)],
    button=0, board=BOARD, holes={0: "Ah Ad", 1: "Kh Kd", 2: "Qh Qc"}, received={0: 150.0, 1: 100.0})
#: Not adjusted: the river was bet, or a live hand is unknown.
RIVER_BET = Hand([100, 100], [
    (0, A.POST_SMALL_BLIND, PRE, 1), (1, A.POST_BIG_BLIND, PRE, 2), (0, A.CALL, PRE, None),
    (1, A.CHECK, PRE, None), *[(slot, A.CHECK, street, None) for street in (FLOP, TURN) for slot in (1, 0)],
    (1, A.BET, RIVER, 98), (0, A.CALL, RIVER, None), (1, A.SHOW, RIVER, None), (0, A.SHOW, RIVER, None)],
    button=0, board=BOARD, holes={0: "Ah Ad", 1: "Kh Kd"}, received={0: 200.0})
UNKNOWN = Hand([100, 100], FLOP_ALL_IN.actions, button=0, board=BOARD, holes={0: "Ah Ad"},
               received={0: 200.0})


def shares(known: list[str], holes: list[list[str]], pots: list[tuple[float, list[int]]]) -> list[float]:
    """Each player's average winnings over every run-out of the board, from the rules (tests.rules)."""
    from itertools import combinations

    from .rules import RANKS, SUITS, best_value

    seen = set(known) | {card for hole in holes for card in hole}
    deck = [rank + suit for rank in RANKS for suit in SUITS if rank + suit not in seen]
    won = [0.0] * len(holes)
    runouts = list(combinations(deck, 5 - len(known)))
    for runout in runouts:
        board = known + list(runout)
        values = [best_value(board + hole) for hole in holes]
        for amount, eligible in pots:
            best = max(values[i] for i in eligible)
            winners = [i for i in eligible if values[i] == best]
            for i in winners:
                won[i] += amount / len(winners)
    return [total / len(runouts) for total in won]


def test_all_in_ev_shares_each_pot_by_equity_over_every_runout():
    built = hand_tables([FLOP_ALL_IN, SIDE_POT, RIVER_BET, UNKNOWN])
    rows = stats.seat_counts(built["hands"], built["seats"], built["actions"]).to_pylist()
    by_hand: dict[int, list[dict]] = {}
    for row in rows:
        by_hand.setdefault(row["hand_key"] & 0xFFFFFFFF, []).append(row)
    flop, side, river, unknown = (by_hand[number] for number in (1, 2, 3, 4))
    heads_up = shares(["2c", "7d", "9h"], [["Ah", "Ad"], ["Kh", "Kd"]], [(200.0, [0, 1])])
    assert [row["allin_ev_net"] for row in flop] == pytest.approx([heads_up[0] - 100, heads_up[1] - 100])
    three = shares(["2c", "7d", "9h", "Js"], [["Ah", "Ad"], ["Kh", "Kd"], ["Qh", "Qc"]],
                   [(150.0, [0, 1, 2]), (100.0, [1, 2])])
    assert [row["allin_ev_net"] for row in side] == \
        pytest.approx([three[0] - 50, three[1] - 100, three[2] - 100])
    for adjusted in (flop, side):
        assert sum(row["allin_ev_net"] for row in adjusted) == sum(row["net"] for row in adjusted)
        assert all(row["allin_hands"] == 1 and row["allin_ev_variance"] == 0 for row in adjusted)  # exact
    for kept in (river, unknown):  # the actual result
        assert [row["allin_ev_net"] for row in kept] == [row["net"] for row in kept]
        assert all(row["allin_hands"] == 0 for row in kept)
    assert [row["allin_unknown"] for row in unknown] == [1, 1]
    assert [row["allin_unknown"] for row in river] == [0, 0]
    counted = stats.seat_counts(built["hands"], built["seats"], built["actions"])
    rated = stats.with_rates(stats.player_counts(counted)).to_pylist()
    first = rated[0]
    assert first["luck"] == pytest.approx(first["net"] - first["allin_ev_net"])


def test_a_preflop_all_in_is_sampled_the_same_in_any_batch_and_its_error_reported():
    built = hand_tables([HANDS["split all-in"], FLOP_ALL_IN, HANDS["split all-in"]])
    whole = stats.seat_counts(built["hands"], built["seats"], built["actions"], samples=4000)
    alone = hand_tables([HANDS["split all-in"]])
    one = stats.seat_counts(alone["hands"], alone["seats"], alone["actions"], samples=4000)
    rows = whole.to_pylist()
    assert [row["allin_ev_net"] for row in rows[:2]] == [row["allin_ev_net"] for row in one.to_pylist()]
    assert [row["allin_ev_net"] for row in rows[:2]] == [row["allin_ev_net"] for row in rows[-2:]]
    # AhKd against AsKc: a split most of the time, a flush for one or the other otherwise, each
    # as likely: an EV of 0 within the sampling error, and the two EVs summing to the nets.
    assert all(row["allin_ev_variance"] > 0 for row in rows[:2])
    assert rows[0]["allin_ev_net"] + rows[1]["allin_ev_net"] == 0
    assert abs(rows[0]["allin_ev_net"]) < 5 * rows[0]["allin_ev_variance"] ** 0.5


def test_a_preflop_all_in_is_enumerated_exactly_on_request():
    # AhKd against AsKc: the suits swapped (hearts and spades, diamonds and clubs) turn one hand into
    # the other, so over every run-out each has exactly half of the pot: an EV of 0, exactly.
    built = hand_tables([HANDS["split all-in"]])
    rows = stats.seat_counts(built["hands"], built["seats"], built["actions"], exact=True).to_pylist()
    assert [row["allin_ev_net"] for row in rows] == [0.0, 0.0]
    assert [row["allin_ev_variance"] for row in rows] == [0.0, 0.0]


def test_a_sampled_preflop_all_in_agrees_with_every_runout_within_its_error():
    # Aces against kings, all in before the flop: the sampled EV lies within a few standard errors
    # of the exact one, and both hands' EVs sum to their nets either way.
    aces_kings = Hand([100, 100], [
        (0, A.POST_SMALL_BLIND, PRE, 1), (1, A.POST_BIG_BLIND, PRE, 2), (0, A.RAISE, PRE, 100),
        (1, A.CALL, PRE, None), (0, A.SHOW, PRE, None), (1, A.SHOW, PRE, None)],
        button=0, board=BOARD, holes={0: "Ah Ad", 1: "Kh Kd"}, received={0: 200.0})
    built = hand_tables([aces_kings])
    sampled = stats.seat_counts(built["hands"], built["seats"], built["actions"], samples=20_000).to_pylist()
    exact = stats.seat_counts(built["hands"], built["seats"], built["actions"], exact=True).to_pylist()
    error = sampled[0]["allin_ev_variance"] ** 0.5
    assert 0 < error < 1.0
    assert abs(sampled[0]["allin_ev_net"] - exact[0]["allin_ev_net"]) < 4 * error
    assert exact[0]["allin_ev_net"] > 50  # aces win about four times in five: 200 x 0.82 - 100
    for rows in (sampled, exact):
        assert sum(row["allin_ev_net"] for row in rows) == sum(row["net"] for row in rows)
