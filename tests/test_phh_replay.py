"""The steps of the PHH replay, one at a time, on a few hand-built hands.

Every expected chip count is worked out from the rules in the comment
beside it, never read off the pipeline's output.  Hands have three players
or more: the heads-up blind order and straddles are left to a later change.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from pipeline.formats import phh
from pipeline.formats.readers import open_source
from pipeline.games import holdem

SEATS = holdem.MAX_PLAYERS


def per_seat(values: list[float]) -> np.ndarray:
    """One hand's values as a (1, seats) float64 row, 0 past the players."""
    row = np.zeros((1, SEATS))
    row[0, :len(values)] = values
    return row


def seated(players: int) -> np.ndarray:
    return (np.arange(SEATS) < players)[None, :]


def split(actions: list[str]) -> phh.Actions:
    return phh.split_actions(pa.array(actions, pa.string()), np.array([len(actions)]))


def chips(stacks: list[float], actions: list[str], *, antes: list[float] | None = None,
          blinds: list[float] | None = None) -> tuple[list[float], list[float]]:
    """One hand through the chip steps: contributions before and after the uncalled bet goes back."""
    n = len(stacks)
    stack = per_seat(stacks)
    posted_ante, posted_blind = phh.posted_forced_bets(
        stack, per_seat(antes or [0] * n), per_seat(blinds or [0] * n), seated(n))
    acts = split(actions)
    street = phh.streets(acts.verb, acts.hand, np.array([len(actions)]))
    level = phh.call_levels(acts.verb, acts.amount, street, acts.hand, posted_blind)
    before = phh.contributions(acts, np.array([n]), street, level, stack, posted_ante, posted_blind)
    after = phh.return_uncalled(before, posted_ante)
    return before[0, :n].tolist(), after[0, :n].tolist()


# --- streets and levels -----------------------------------------------------------------------

def test_the_street_of_an_action_counts_the_board_deals_before_it_in_its_own_hand() -> None:
    acts = split(["d dh p1 AcKd", "p1 cc", "d db 2c3d4h", "p1 cc", "d db 5s", "p1 cc", "d db 6s", "p1 cc",
                  "p1 cc", "d db 7s"])
    counts = np.array([8, 2])  # the second hand starts at "p1 cc" before the flop again
    street = phh.streets(acts.verb, np.repeat([0, 1], counts), counts)
    assert street.tolist() == [0, 0, 0, 1, 1, 2, 2, 3, 0, 0]


def test_before_the_flop_a_call_matches_the_big_blind_then_the_largest_raise() -> None:
    stack = per_seat([1000, 1000, 1000])
    _, posted_blind = phh.posted_forced_bets(stack, per_seat([0, 0, 0]), per_seat([50, 100, 0]), seated(3))
    acts = split(["p3 cc", "p1 cbr 300", "p2 cbr 250", "p3 cc", "d db 2c3d4h", "p2 cc", "p1 cbr 80",
                  "p2 cc"])
    street = phh.streets(acts.verb, acts.hand, np.array([8]))
    level = phh.call_levels(acts.verb, acts.amount, street, acts.hand, posted_blind)
    # The big blind (100), then 300: a smaller raise later does not lower it.  On the flop
    # nothing is bet before p2 checks (-inf), then p2 calls p1's 80.
    assert level.tolist() == [100, 100, 300, 300, 300, -np.inf, -np.inf, 80]


# --- antes and blinds --------------------------------------------------------------------------

def test_antes_come_first_and_a_short_stack_posts_what_it_has() -> None:
    posted_ante, posted_blind = phh.posted_forced_bets(
        per_seat([1000, 60, 8, 500]), per_seat([10, 10, 10, 10]), per_seat([50, 100, 0, 0]), seated(4))
    # p2 has 60: ante 10, then only 50 of its 100 blind.  p3 has 8: all of it goes to the ante.
    assert posted_ante[0, :4].tolist() == [10, 10, 8, 10]
    assert posted_blind[0, :4].tolist() == [50, 50, 0, 0]
    assert not posted_ante[0, 4:].any() and not posted_blind[0, 4:].any()


def test_an_empty_seat_posts_nothing() -> None:
    # Values past the seated players, as a longer list would leave them: nobody posts them.
    posted_ante, posted_blind = phh.posted_forced_bets(
        per_seat([100, 100, 100, 100]), per_seat([5, 5, 5, 5]), per_seat([10, 20, 0, 40]), seated(3))
    assert posted_ante[0, :4].tolist() == [5, 5, 5, 0]
    assert posted_blind[0, :4].tolist() == [10, 20, 0, 0]


def test_antes_and_blinds_are_in_the_contributions_of_players_who_fold() -> None:
    # Antes 25; blinds 50 and 100; p3 raises to 300, p1 and p2 fold.  p3 put 25 + 300, but
    # only the big blind's 100 is matched: 200 goes back.  p1: 25 + 50, p2: 25 + 100.
    before, after = chips([1000, 1000, 1000], ["p3 cbr 300", "p1 f", "p2 f"],
                          antes=[25, 25, 25], blinds=[50, 100, 0])
    assert before == [75, 125, 325]
    assert after == [75, 125, 125]


def test_the_big_blind_checks_its_option() -> None:
    # p3 and p1 call 100; the big blind checks: everybody 100 before the flop, 0 after.
    before, after = chips([1000, 1000, 1000], ["p3 cc", "p1 cc", "p2 cc", "d db 2c3d4h", "p1 cc", "p2 cc",
                                               "p3 cc"], blinds=[50, 100, 0])
    assert before == after == [100, 100, 100]


# --- bets, raises and calls capped by the stack ----------------------------------------------

def test_a_raise_is_a_total_on_its_street_not_an_increment() -> None:
    # Pre-flop p3 raises to 300 and both blinds call 300 in all (not 300 more).  Flop: p1 bets
    # 200, p2 raises to 600, p3 folds, p1 calls 600.  p1 and p2: 300 + 600; p3: 300.
    actions = ["p3 cbr 300", "p1 cc", "p2 cc", "d db 2c3d4h", "p1 cbr 200", "p2 cbr 600", "p3 f", "p1 cc"]
    before, after = chips([2000, 2000, 2000], actions, blinds=[50, 100, 0])
    assert before == after == [900, 900, 300]


def test_a_call_for_more_than_the_stack_is_an_all_in_call() -> None:
    # p3 has 250: it calls p1's raise to 600 with all of it.  p2 folds its big blind.  p1's
    # 600 is matched only up to 250: 350 goes back to p1.
    actions = ["p3 cc", "p1 cbr 600", "p2 f", "p3 cc"]
    before, after = chips([1000, 1000, 250], actions, blinds=[50, 100, 0])
    assert before == [600, 100, 250]
    assert after == [250, 100, 250]


def test_a_bet_for_more_than_the_stack_is_capped_too() -> None:
    # p1 "raises to 5000" with 1000: it commits its 1000.  p2's call of 5000 is capped by its
    # 2000, of which only p1's 1000 is matched: 1000 goes back to p2.
    before, after = chips([1000, 2000, 2000], ["p3 f", "p1 cbr 5000", "p2 cc"], blinds=[50, 100, 0])
    assert before == [1000, 2000, 0]
    assert after == [1000, 1000, 0]


def test_the_cap_is_what_the_earlier_streets_left() -> None:
    # p2 has 500: 100 go in before the flop; on the flop it calls p1's 800 with the 400 left.
    actions = ["p3 f", "p1 cc", "p2 cc", "d db 2c3d4h", "p1 cbr 800", "p2 cc"]
    before, after = chips([2000, 500, 2000], actions, blinds=[50, 100, 0])
    assert before == [900, 500, 0]
    assert after == [500, 500, 0]


# --- the uncalled bet -------------------------------------------------------------------------

def test_a_bet_that_nobody_calls_goes_back() -> None:
    # Everybody calls 100; on the flop p1 bets 200 and both fold: p1 gets its 200 back.
    actions = ["p3 cc", "p1 cc", "p2 cc", "d db 2c3d4h", "p1 cbr 200", "p2 f", "p3 f"]
    before, after = chips([1000, 1000, 1000], actions, blinds=[50, 100, 0])
    assert before == [300, 100, 100]
    assert after == [100, 100, 100]


def test_only_the_part_above_the_last_raise_goes_back() -> None:
    # Flop: p1 bets 300, p2 raises to 900, p1 folds.  p2's 900 was called up to p1's 300:
    # 600 goes back; p3 folded before the flop.
    actions = ["p3 f", "p1 cc", "p2 cc", "d db 2c3d4h", "p1 cbr 300", "p2 cbr 900", "p1 f"]
    before, after = chips([5000, 5000, 5000], actions, blinds=[50, 100, 0])
    assert before == [400, 1000, 0]
    assert after == [400, 400, 0]


def test_return_uncalled_lowers_the_largest_to_the_second_largest() -> None:
    contributed = np.array([[100.0, 700.0, 250.0, 0.0], [300.0, 300.0, 50.0, 0.0]])
    returned = phh.return_uncalled(contributed, np.zeros_like(contributed))
    assert returned.tolist() == [[100, 250, 250, 0], [300, 300, 50, 0]]
    assert contributed.tolist() == [[100, 700, 250, 0], [300, 300, 50, 0]]  # a new array


def test_a_big_blind_ante_is_dead_money_not_an_uncalled_bet() -> None:
    # p2 posts the table's ante, 30, and the big blind, 100.  p3 raises to 300, p1 folds, p2
    # calls 300.  Both bet 300: nothing is uncalled, and p2's 30 stays in the pot.
    actions = ["p3 cbr 300", "p1 f", "p2 cc", "d db 2c3d4h", "p2 cc", "p3 cc"]
    before, after = chips([1000, 1000, 1000], actions, antes=[0, 30, 0], blinds=[50, 100, 0])
    assert before == after == [50, 330, 300]


def test_a_big_blind_ante_does_not_hide_a_raise_that_nobody_called() -> None:
    # p3 opens to 250, p1 folds, p2 (ante 30, blind 100) re-raises to 870, p3 shoves its 900
    # and p2 folds.  p3's 900 is called up to 870: 30 goes back, though p2 put in 900 in all.
    actions = ["p3 cbr 250", "p1 f", "p2 cbr 870", "p3 cbr 900", "p2 f"]
    before, after = chips([1000, 1000, 900], actions, antes=[0, 30, 0], blinds=[50, 100, 0])
    assert before == [50, 900, 900]
    assert after == [50, 900, 870]


# --- who is live, side pots, received chips and the recorded winners ---------------------------

def test_live_players_are_the_seated_who_did_not_fold() -> None:
    acts = phh.split_actions(pa.array(["p3 f", "p1 cc", "p2 f", "p1 cc"], pa.string()), np.array([3, 1]))
    live = phh.live_players(acts, np.array([4, 3]), np.vstack([seated(4), seated(3)]))
    assert live[:, :5].tolist() == [[True, False, False, True, False], [True, True, True, False, False]]


def test_live_players_who_put_in_different_amounts_make_a_side_pot() -> None:
    live = np.zeros((3, SEATS), dtype=bool)
    live[:, :3] = True
    live[2, 0] = False  # the short stack of the third hand folded
    contributed = np.zeros((3, SEATS))
    contributed[0, :3] = [500, 1000, 1000]  # p1 all-in for 500: the other two play a side pot
    contributed[1, :3] = [1000, 1000, 1000]
    contributed[2, :3] = [100, 1000, 1000]  # the 100 of a player who folded is no side pot
    stack = np.full((3, SEATS), 5000.0)
    side = phh.side_pots(live, contributed, np.zeros_like(contributed), stack)
    assert side.tolist() == [True, False, False]


def test_an_ante_makes_no_side_pot() -> None:
    live = np.zeros((2, SEATS), dtype=bool)
    live[:, :2] = True
    contributed = np.zeros((2, SEATS))
    contributed[:, :2] = [[1030, 1000], [1030, 1000]]
    posted_ante = np.zeros((2, SEATS))
    posted_ante[0, :2] = [30, 0]  # a big blind ante: both bet 1000
    posted_ante[1, :2] = [30, 30]  # both posted 30: p2 bet 30 less, all-in
    side = phh.side_pots(live, contributed, posted_ante, np.full((2, SEATS), 5000.0))
    assert side.tolist() == [False, True]


def test_received_chips_come_from_the_finishing_stacks_else_the_winnings() -> None:
    stack = np.vstack([per_seat([1000, 1000, 1000])] * 2)
    contributed = np.vstack([per_seat([300, 300, 100])] * 2)
    finishing = np.vstack([per_seat([1400, 700, 900]), per_seat([0, 0, 0])])
    winnings = np.vstack([per_seat([5, 5, 5]), per_seat([0, 700, 0])])
    received = phh.received_chips(stack, contributed, finishing, np.array([True, False]), winnings)
    # 1400 - 1000 + 300: p1 took the pot of 700; the others got nothing back.
    assert received[:, :3].tolist() == [[700, 0, 0], [0, 700, 0]]


def test_recorded_winners_are_the_live_players_who_received_chips() -> None:
    received = np.vstack([per_seat([700, 0, 0]), per_seat([350, 350, 0]), per_seat([0, 0, 500]),
                          per_seat([0, 1e-12, 0])])
    live = np.vstack([seated(3), seated(3), seated(2), seated(3)])
    stack = np.full((4, SEATS), 1000.0)
    # A split pot names both; chips to a player who folded name nobody; a rounding crumb is no win.
    assert phh.recorded_winners(received, live, stack).tolist() == ["1", "1 2", "none", "none"]


# --- the steps together, on hands read from a file ---------------------------------------------

SIDE_POT_HAND = """\
variant = 'NT'
antes = [10, 10, 10]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [500, 1000, 2000]
actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 QsQh', 'p3 cbr 1990', 'p1 cc', 'p2 cc', \
'd db 2c3d7h', 'd db 8s', 'd db 9c', 'p1 sm AsAh', 'p2 sm KsKh', 'p3 sm QsQh']
finishing_stacks = [1500, 1000, 1000]
"""

CHECKED_HAND = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [1000, 1000, 1000]
actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 QsQh', 'p3 f', 'p1 cbr 300', 'p2 cc', \
'd db 2c3d7h', 'p1 cbr 200', 'p2 cc', 'd db 8s', 'p1 cc', 'p2 cc', 'd db Jc', 'p1 cc', 'p2 cbr 500', \
'p1 f']
finishing_stacks = [500, 1500, 1000]
"""


def replayed(tmp_path: Path, text: str) -> tuple[phh.Hands, phh.Replay]:
    path = tmp_path / "hand.phh"
    path.write_text(text)
    (hands,) = list(phh.read_hands(open_source(path)))
    return hands, phh.replay(hands)


def test_an_all_in_for_less_makes_a_side_pot_that_the_chips_do_not_check(tmp_path: Path) -> None:
    _, result = replayed(tmp_path, SIDE_POT_HAND)
    # Antes 10.  p3 shoves to 1990 on the street; p1 calls with its 490 left, p2 with 990.
    # p3's 1990 is matched up to 990: 1000 goes back.  Main pot 3 x 500 to p1's aces, side pot
    # 2 x 500 to p2's kings: received = finishing - starting + contributed.
    assert result.contributed[0, :3].tolist() == [500, 1000, 1000]
    assert result.received[0, :3].tolist() == [1500, 1000, 0]
    assert result.live[0, :3].tolist() == [True, True, True]
    assert result.side_pot.tolist() == [True]
    assert result.scored.tolist() == [True] and result.expected.tolist() == [""]
    assert result.counts["side_pots"] == 1 and result.counts["no_recorded_result"] == 0


def test_a_showdown_without_side_pot_names_its_recorded_winner(tmp_path: Path) -> None:
    _, result = replayed(tmp_path, CHECKED_HAND)
    # p1 and p2: 300 + 200 before the turn; on the river p2 bets 500 and p1 folds, so there
    # is no showdown: p2's 500 goes back.  p2 nets +500: received 1000.
    assert result.contributed[0, :3].tolist() == [500, 500, 0]
    assert result.received[0, :3].tolist() == [0, 1000, 0]
    assert result.live[0, :3].tolist() == [False, True, False]
    assert result.scored.tolist() == [False] and result.counts["without_showdown"] == 1


def test_a_checked_showdown_names_the_player_who_received_the_pot(tmp_path: Path) -> None:
    text = CHECKED_HAND.replace(", 'p2 cbr 500', 'p1 f']", ", 'p2 cc', 'p1 sm AsAh', 'p2 sm KsKh']")
    text = text.replace("[500, 1500, 1000]", "[1500, 500, 1000]")
    assert text != CHECKED_HAND and "'p1 f'" not in text
    _, result = replayed(tmp_path, text)
    # Both put in 500; p1's aces beat p2's kings (board 2c 3d 7h 8s Jc): p1 receives 1000.
    assert result.contributed[0, :3].tolist() == [500, 500, 0]
    assert result.received[0, :3].tolist() == [1000, 0, 0]
    assert not result.side_pot[0] and result.scored[0]
    assert result.expected.tolist() == ["1"]


UNSEATED = ({"'p3 f'": "'p4 f'"}, "action 'p4 f': player 4 is not seated (3 players)")
TWICE = ({"'d dh p3 QsQh'": "'d dh p3 AsQh'"}, "card As is dealt twice")


@pytest.mark.parametrize("damage, reason", [
    UNSEATED, TWICE,
    # Both: the actions are checked before the cards, and a hand keeps its first reason.
    (UNSEATED[0] | TWICE[0], UNSEATED[1]),
])
def test_a_rejected_hand_keeps_its_first_reason(tmp_path: Path, damage: dict[str, str], reason: str) -> None:
    text = CHECKED_HAND
    for old, new in damage.items():
        assert old in text
        text = text.replace(old, new)
    hands, result = replayed(tmp_path, text)
    assert result.rejections.problem.tolist() == [reason]
    assert result.rejections.rejected.tolist() == [True]
    assert not result.scored.any() and result.counts["without_showdown"] == 0
    assert hands.problem.tolist() == [None]  # the hands as read stay untouched
