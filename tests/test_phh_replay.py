"""The rules of the replay on a few hand-built hands: PHH hands read and replayed, and Records
built by hand for what the shared model decides (who is live, side pots, what the record pays).

Every expected chip count is worked out from the rules in the comment beside it, never read off
the pipeline's output.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from pipeline.formats import phh
from pipeline.formats.readers import open_source
from pipeline.hands.audit import settle
from pipeline.hands.model import VOCABULARIES, Action
from pipeline.hands.record import SLOTS
from pipeline.hands.replay import replay
from pipeline.hands.showdown import seat_masks
from pipeline.hands.tables import received

from .hand_records import Hand, record_of


def read(text: str) -> tuple[phh.Hands, phh.Replay]:
    """One PHH hand from its text, read and replayed."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hand.phh"
        path.write_text(text)
        (hands,) = list(phh.read_hands(open_source(path)))
    return hands, phh.replay(hands)


def hand_text(stacks: list[float], actions: list[str], *, antes: list[float] | None = None,
              blinds: list[float] | None = None) -> str:
    n = len(stacks)
    return (f"variant = 'NT'\nantes = {antes or [0] * n}\nblinds_or_straddles = {blinds or [0] * n}\n"
            f"min_bet = 1\nstarting_stacks = {stacks}\nactions = {actions}\n")


def chips(stacks: list[float], actions: list[str], *, antes: list[float] | None = None,
          blinds: list[float] | None = None) -> tuple[list[float], list[float]]:
    """One hand through the replay: contributions before and after the uncalled bet goes back."""
    _, result = read(hand_text(stacks, actions, antes=antes, blinds=blinds))
    n = len(stacks)
    after = result.contributed[0, :n]
    before = after + result.settled.chips.returned[0, :n]
    return before.tolist(), after.tolist()


def action_rows(stacks: list[float], actions: list[str], **forced: list[float]) -> list[tuple[str, float]]:
    """The actions a player takes (posts left out) as the replay names them, with the chips each adds."""
    _, result = read(hand_text(stacks, actions, **forced))
    settled = result.settled
    names = VOCABULARIES["action"]
    return [(names[code], amount) for code, amount, kind in zip(settled.chips.action, settled.chips.amount,
                                                                 settled.record.action)
            if not names[kind].startswith("post")]


# --- streets and levels -----------------------------------------------------------------------

def test_the_street_of_an_action_counts_the_board_deals_before_it_in_its_own_hand() -> None:
    texts = ["d dh p1 AcKd", "p1 cc", "d db 2c3d4h", "p1 cc", "d db 5s", "p1 cc", "d db 6s", "p1 cc", "p1 cc",
             "d db 7s"]
    acts = phh.split_actions(pa.array(texts, pa.string()), np.array([8, 2]))
    # The second hand starts at "p1 cc" before the flop again.
    street = phh.streets(acts.verb, np.repeat([0, 1], [8, 2]))
    assert street.tolist() == [0, 0, 0, 1, 1, 2, 2, 3, 0, 0]


def test_before_the_flop_a_call_matches_the_big_blind_then_the_largest_raise() -> None:
    rows = action_rows([1000, 1000, 1000], ["p3 cc", "p1 cbr 300", "p2 cbr 250", "p3 cc", "d db 2c3d4h",
                                            "p2 cc", "p1 cbr 80", "p2 cc"], blinds=[50, 100, 0])
    # p3 calls the big blind (100); p1 raises to 300 (250 more than its 50); p2's "raise" to 250
    # is 150 more than its 100, and does not lower the level: p3 calls 300, 200 more.  On the
    # flop nothing is bet before p2 checks; then p1 bets 80 and p2 calls it.
    assert rows == [("call", 100), ("raise", 250), ("raise", 150), ("call", 200), ("check", 0), ("bet", 80),
                    ("call", 80)]


# --- antes and blinds --------------------------------------------------------------------------

def test_antes_come_first_and_a_short_stack_posts_what_it_has() -> None:
    # p2 has 60: ante 10, then only 50 of its 100 blind.  p3 has 8: all of it goes to the ante.
    # Nothing is bet beyond the blinds: p1's 50 and p2's 50 match, nothing goes back.
    before, after = chips([1000, 60, 8, 500], [], antes=[10, 10, 10, 10], blinds=[50, 100, 0, 0])
    assert before == after == [60, 60, 8, 10]


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
    # p1 "raises to 5000" with 1000: it commits its 1000, and p2 calls that.  Such a hand cannot
    # have been played as written: it is rejected, naming the bet.
    before, after = chips([1000, 2000, 2000], ["p3 f", "p1 cbr 5000", "p2 cc"], blinds=[50, 100, 0])
    assert before == after == [1000, 1000, 0]
    _, result = read(hand_text([1000, 2000, 2000], ["p3 f", "p1 cbr 5000", "p2 cc"], blinds=[50, 100, 0]))
    assert result.rejections.problem.tolist() == [
        "action 'p1 cbr 5000': bet 5000 beyond the stack (the player has 1000)"]


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
    actions = [(2, Action.FOLD, 0, None), (0, Action.CALL, 0, None), (1, Action.FOLD, 0, None)]
    chips_of = replay(record_of([Hand([100] * 4, actions), Hand([100] * 3, [(0, Action.CALL, 0, None)])]))
    assert chips_of.live[:, :5].tolist() == [[True, False, False, True, False],
                                             [True, True, True, False, False]]


def side_pot(stacks: list[float], actions: list[tuple[int, Action, int, float | None]]) -> bool:
    record = record_of([Hand(stacks, actions)])
    return bool(settle(record).audit.side_pot[0])


def test_live_players_who_put_in_different_amounts_make_a_side_pot() -> None:
    # p1 is all in for 500: the other two play a side pot.
    assert side_pot([500, 5000, 5000], [(1, Action.BET, 0, 1000), (2, Action.CALL, 0, None),
                                        (0, Action.CALL, 0, None)])
    assert not side_pot([5000] * 3, [(1, Action.BET, 0, 1000), (2, Action.CALL, 0, None),
                                     (0, Action.CALL, 0, None)])
    # The 100 of a player who folded is no side pot.
    assert not side_pot([5000] * 3, [(0, Action.BET, 0, 100), (1, Action.RAISE, 0, 1000),
                                     (2, Action.CALL, 0, None), (0, Action.FOLD, 0, None)])


def test_an_ante_makes_no_side_pot() -> None:
    # A big blind ante: both bet 1000.
    assert not side_pot([5000, 5000], [(0, Action.POST_ANTE, 0, 30), (0, Action.BET, 0, 1000),
                                       (1, Action.CALL, 0, None)])
    # All posted 30; p2 calls all in for the 970 it has left, p3 calls 1000: a side pot of 2 x 30.
    antes = [(slot, Action.POST_ANTE, 0, 30) for slot in range(3)]
    assert side_pot([5000, 1000, 5000], [*antes, (0, Action.BET, 0, 1000), (1, Action.CALL, 0, None),
                                         (2, Action.CALL, 0, None)])


def test_received_chips_come_from_the_finishing_stacks_else_the_winnings() -> None:
    actions = [(0, Action.BET, 0, 300), (1, Action.CALL, 0, None), (2, Action.BET, 0, 100)]
    record = record_of([Hand([1000] * 3, actions), Hand([1000] * 3, actions, received={1: 700})])
    record.finishing = np.full((2, SLOTS), np.nan)
    record.finishing[0, :3] = [1400, 700, 900]
    record.received[0, :3] = [5, 5, 5]  # winnings beside finishing stacks: the stacks are read
    # 1400 - 1000 + 300: p1 took the pot of 700; the others got nothing back.
    assert received(record, replay(record))[:, :3].tolist() == [[700, 0, 0], [0, 700, 0]]


def test_recorded_winners_are_the_live_players_who_received_chips() -> None:
    calls = [(0, Action.BET, 0, 350), (1, Action.CALL, 0, None), (2, Action.CALL, 0, None)]
    hands = [Hand([1000] * 3, calls, received={0: 1050}), Hand([1000] * 3, calls, received={0: 525, 1: 525}),
             Hand([1000] * 3, [(0, Action.BET, 0, 350), (1, Action.CALL, 0, None), (2, Action.FOLD, 0, None)],
                  received={2: 700}),
             Hand([1000] * 3, calls, received={1: 1e-12})]
    audit_of = settle(record_of(hands)).audit
    masks = seat_masks(record_of(hands).seat, audit_of.winners)
    # A split pot names both; chips to a player who folded name nobody; a rounding crumb is no win.
    assert masks.tolist() == [1, 3, 0, 0]


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
