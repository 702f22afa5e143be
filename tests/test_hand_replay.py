"""The replay of the chips, one set of rules for every format, on hands built by hand."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.hands.model import VOCABULARIES, Action
from pipeline.hands.replay import replay

from .hand_records import Hand, record_of

A = Action
NAMES = VOCABULARIES["action"]


def named(actions: np.ndarray) -> list[str]:
    return [NAMES[code] for code in actions]


def test_blinds_a_raise_a_call_and_a_fold():
    hand = Hand([100, 100, 100], [(0, A.POST_SMALL_BLIND, 0, 1), (1, A.POST_BIG_BLIND, 0, 2),
                                  (2, A.RAISE, 0, 6), (0, A.CALL, 0, None), (1, A.FOLD, 0, None),
                                  (0, A.CHECK, 1, None), (2, A.BET, 1, 10), (0, A.FOLD, 1, None)], button=2)
    record = record_of([hand])
    chips = replay(record)
    assert chips.amount.tolist() == [1, 2, 6, 5, 0, 0, 10, 0]
    assert chips.pot_before.tolist() == [0, 1, 3, 9, 14, 14, 14, 24]
    assert named(chips.action) == ["post small blind", "post big blind", "raise", "call", "fold",
                                           "check", "bet", "fold"]
    # The bet nobody called goes back: slot 2 put in 6, slot 0 6, slot 1 2.
    assert chips.returned[0, :3].tolist() == [0, 0, 10]
    assert chips.contributed[0, :3].tolist() == [6, 2, 6]
    assert chips.pot.tolist() == [14]
    assert chips.folded_street[0, :3].tolist() == [1, 0, -1]
    assert not chips.showdown[0]


def test_a_call_for_more_than_the_stack_is_all_in_and_the_excess_returned():
    hand = Hand([50, 200], [(0, A.POST_SMALL_BLIND, 0, 1), (1, A.POST_BIG_BLIND, 0, 2), (0, A.RAISE, 0, 150),
                            (1, A.CALL, 0, None)], button=0)
    chips = replay(record_of([Hand([200, 50], hand.actions, button=0)]))
    # Slot 0 raises to 150 of its 200; slot 1 calls all in for its 50.
    assert chips.amount.tolist() == [1, 2, 149, 48]
    assert chips.all_in.tolist() == [False, False, False, True]
    assert chips.returned[0, :2].tolist() == [100, 0]
    assert chips.contributed[0, :2].tolist() == [50, 50]
    assert chips.all_in_street[0, :2].tolist() == [-1, 0]
    assert chips.showdown[0]


def test_dead_money_counts_for_the_pot_not_for_the_bet():
    # Antes of 1 each; slot 2 posts a dead small blind of 1 and a live big blind of 2 (a missed blind).
    actions = [(0, A.POST_ANTE, 0, 1), (1, A.POST_ANTE, 0, 1), (2, A.POST_ANTE, 0, 1),
               (0, A.POST_SMALL_BLIND, 0, 1), (1, A.POST_BIG_BLIND, 0, 2), (2, A.POST_DEAD, 0, 1),
               (2, A.POST, 0, 2), (0, A.CALL, 0, None), (1, A.CHECK, 0, None), (2, A.CHECK, 0, None)]
    chips = replay(record_of([Hand([100, 100, 100], actions, button=2)]))
    assert chips.amount.tolist() == [1, 1, 1, 1, 2, 1, 2, 1, 0, 0]
    assert named(chips.action)[-3:] == ["call", "check", "check"]
    assert chips.contributed[0, :3].tolist() == [3, 3, 4]
    assert chips.returned[0, :3].tolist() == [0, 0, 0]


def test_antes_only_first_raise_is_a_bet_and_short_stacks_cap_posts():
    actions = [(0, A.POST_ANTE, 0, 5), (1, A.POST_ANTE, 0, 5), (0, A.BET, 0, 20), (1, A.CALL, 0, None)]
    chips = replay(record_of([Hand([100, 12], actions, button=1)]))
    assert chips.amount.tolist() == [5, 5, 20, 7]
    assert named(chips.action) == ["post ante", "post ante", "bet", "call"]
    assert chips.all_in.tolist() == [False, False, False, True]
    assert chips.contributed[0, :2].tolist() == [12, 12]


def test_hands_of_a_group_do_not_mix():
    one = Hand([100, 100], [(0, A.POST_SMALL_BLIND, 0, 1), (1, A.POST_BIG_BLIND, 0, 2), (0, A.FOLD, 0, None)],
               button=0)
    two = Hand([100, 100], [(0, A.POST_SMALL_BLIND, 0, 1), (1, A.POST_BIG_BLIND, 0, 2), (0, A.CALL, 0, None),
                            (1, A.CHECK, 0, None), (1, A.BET, 1, 4), (0, A.CALL, 1, None)], button=0)
    chips = replay(record_of([one, two, one]))
    assert chips.pot.tolist() == [2, 12, 2]
    assert chips.returned[:, 1].tolist() == [1, 0, 1]
    assert chips.pot_before.tolist()[3:9] == [0, 1, 3, 4, 4, 8]  # counted from each hand's start


@pytest.mark.parametrize("seed", range(3))
def test_random_hands_against_a_loop_written_from_the_rules(seed):
    rng = np.random.default_rng(seed)
    hands = [random_hand(rng) for _ in range(300)]
    chips = replay(record_of(hands))
    at = 0
    for row, hand in enumerate(hands):
        amounts, contributed, returned = loop_replay(hand)
        n = len(hand.actions)
        assert chips.amount[at:at + n] == pytest.approx(amounts), (row, hand)
        assert chips.contributed[row, :len(hand.stacks)] == pytest.approx(contributed), (row, hand)
        assert chips.returned[row, :len(hand.stacks)] == pytest.approx(returned), (row, hand)
        at += n


def random_hand(rng: np.random.Generator) -> Hand:
    players = int(rng.integers(2, 7))
    stacks = [float(rng.integers(5, 300)) for _ in range(players)]
    actions: list[tuple[int, Action, int, float | None]] = []
    if rng.random() < 0.3:
        actions += [(s, A.POST_ANTE, 0, 1.0) for s in range(players)]
    actions += [(0, A.POST_SMALL_BLIND, 0, 1.0), (1, A.POST_BIG_BLIND, 0, 2.0)]
    for street in range(4):
        for _ in range(int(rng.integers(0, 2 * players))):
            slot = int(rng.integers(0, players))
            kind = rng.choice([A.CALL, A.CHECK, A.RAISE, A.FOLD])
            to = float(rng.integers(1, 60)) * (street + 1) if kind == A.RAISE else None
            actions.append((slot, A(kind), street, to))
    return Hand(stacks, actions, button=players - 1)


def loop_replay(hand: Hand) -> tuple[list[float], list[float], list[float]]:
    """The chips of one hand, an action at a time, from the rules as a dealer applies them."""
    n = len(hand.stacks)
    stack = [s or 0.0 for s in hand.stacks]
    put = [0.0] * n  # every chip in, this hand
    dead = [0.0] * n
    street_total = [0.0] * n
    level = 0.0
    current = 0
    left_at_street = list(stack)
    amounts = []
    for slot, action, street, to in hand.actions:
        if street != current:
            current, street_total, level = street, [0.0] * n, 0.0
            left_at_street = [stack[i] - put[i] for i in range(n)]
        if action in (A.POST_ANTE, A.POST_DEAD):
            add = max(min(to or 0.0, stack[slot] - put[slot]), 0.0)
            dead[slot] += add
            left_at_street[slot] -= add
        elif action in (A.POST_SMALL_BLIND, A.POST_BIG_BLIND, A.POST, A.POST_STRADDLE, A.BET, A.RAISE,
                        A.CALL, A.CHECK):
            if action in (A.CALL, A.CHECK):
                wanted = level
            elif action in (A.BET, A.RAISE):
                wanted = to or 0.0
            else:
                wanted = street_total[slot] + (to or 0.0)
            new = max(street_total[slot], min(wanted, left_at_street[slot]))
            add = new - street_total[slot]
            street_total[slot] = new
            if action not in (A.CALL, A.CHECK):
                level = max(level, min(wanted, left_at_street[slot]))
        else:
            add = 0.0
        put[slot] += add
        amounts.append(add)
    bets = [put[i] - dead[i] for i in range(n)]
    ranked = sorted(bets)
    returned = [0.0] * n
    top = bets.index(max(bets))
    returned[top] = ranked[-1] - ranked[-2]
    return amounts, [put[i] - returned[i] for i in range(n)], returned
