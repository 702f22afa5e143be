"""Positions from the button and the blinds, on 2- to 10-handed tables with empty seats and dead
buttons, against a reference that walks the table seat by seat as a dealer would."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pipeline.hands.positions import NONE, POSITIONS, positions

#: The positions of a full table of n players, from the first to act before the flop: the contract.
FULL = {
    2: "BTN BB",
    3: "BTN SB BB",
    4: "CO BTN SB BB",
    5: "HJ CO BTN SB BB",
    6: "UTG HJ CO BTN SB BB",
    7: "UTG LJ HJ CO BTN SB BB",
    8: "UTG UTG+1 LJ HJ CO BTN SB BB",
    9: "UTG UTG+1 UTG+2 LJ HJ CO BTN SB BB",
    10: "UTG UTG+1 UTG+2 UTG+3 LJ HJ CO BTN SB BB",
}


def names(codes: np.ndarray) -> list[str | None]:
    return [str(POSITIONS[code]) if code != NONE else None for code in codes]


def reference(dealt: list[bool], button: int, small: int, big: int) -> list[str | None]:
    """A dealer's walk: from the seat after the button, clockwise, the players dealt in; the blinds
    as posted (or the two after the button); the button; the others named from the button back."""
    seats = len(dealt)
    around = [(button + 1 + step) % seats for step in range(seats)]
    players = [seat for seat in around if dealt[seat]]
    if small < 0 and big < 0:
        if len(players) == 2:
            small, big = button, next(seat for seat in players if seat != button)
        else:
            small, big = players[0], players[1]
    named: dict[int, str] = {}
    if small >= 0 and dealt[small]:
        named[small] = "SB"
    if big >= 0 and dealt[big]:
        named[big] = "BB"
    if dealt[button]:
        named[button] = "BTN"
    rest = [seat for seat in players if seat not in named]
    # Counted back from the button's seat: the last before it is CO, then HJ, LJ, then UTG+k.
    back = ["CO", "HJ", "LJ"]
    labels = []
    for place in range(len(rest)):  # place 0 is the last before the button
        if place < 3 and not (len(rest) == 3 and place == 2):
            labels.append(back[place])
        else:
            labels.append(None)  # an early seat: numbered below
    early = [i for i, label in enumerate(labels) if label is None]
    for number, i in enumerate(reversed(early)):  # the first to act is UTG
        labels[i] = "UTG" if number == 0 else f"UTG+{number}"
    for seat, label in zip(reversed(rest), labels):
        named[seat] = label
    return [named.get(seat) for seat in range(seats)]


@pytest.mark.parametrize("players", sorted(FULL))
def test_a_full_table_reads_as_the_contract_says(players):
    # Seats 0..n-1, the button on the last: the blinds are seats 0 and 1 (heads-up, the button
    # posts the small blind and seat 0 the big), and play starts after the big blind.
    dealt = np.ones((1, players), dtype=bool)
    got = names(positions(dealt, np.array([players - 1]))[0])
    start = 2 if players > 2 else 1
    in_order = [got[(start + step) % players] for step in range(players)]
    assert " ".join(in_order) == FULL[players]
    assert got == reference([True] * players, players - 1, -1, -1)


def test_blinds_as_posted_and_a_dead_button():
    # Nine seats, seats 2 and 6 empty, the button on seat 2: a dead button; seat 3 posts the small
    # blind and seat 4 the big.
    dealt = np.array([[True, True, False, True, True, True, False, True, True]])
    got = names(positions(dealt, np.array([2]), small_blind=np.array([3]), big_blind=np.array([4]))[0])
    assert got == ["HJ", "CO", None, "SB", "BB", "UTG", None, "UTG+1", "LJ"]
    assert "BTN" not in got


def test_ante_only_hands_take_the_two_after_the_button_as_blinds():
    dealt = np.array([[True, True, True, True]])
    assert names(positions(dealt, np.array([1]))[0]) == ["CO", "BTN", "SB", "BB"]
    heads_up = np.array([[False, True, False, True]])  # the button and one other
    assert names(positions(heads_up, np.array([3]))[0]) == [None, "BB", None, "BTN"]


def test_a_missing_small_blind_leaves_sb_to_nobody():
    dealt = np.ones((1, 6), dtype=bool)
    got = names(positions(dealt, np.array([0]), small_blind=np.array([-1]), big_blind=np.array([1]))[0])
    assert got == ["BTN", "BB", "UTG", "LJ", "HJ", "CO"]


def test_random_tables_agree_with_the_reference():
    rng = random.Random(7)
    cases = []
    for _ in range(3000):
        seats = rng.randint(2, 10)
        dealt = [rng.random() < 0.75 for _ in range(seats)]
        if sum(dealt) < 2:
            dealt[:2] = [True, True]
        button = rng.randrange(seats)
        if rng.random() < 0.3:  # blinds as posted, the first two after the button; some dead
            around = [(button + 1 + step) % seats for step in range(seats)]
            players = [seat for seat in around if dealt[seat]]
            if len(players) == 2 and dealt[button]:
                small, big = button, players[0]
            else:
                small, big = players[0], players[1]
            if rng.random() < 0.2:
                small = -1  # no small blind posted
        else:
            small = big = -1
        cases.append((dealt, button, small, big))
    for seats in range(2, 11):
        batch = [case for case in cases if len(case[0]) == seats]
        got = positions(np.array([dealt for dealt, *_ in batch]), np.array([b for _, b, _, _ in batch]),
                        small_blind=np.array([s for *_, s, _ in batch]),
                        big_blind=np.array([g for *_, g in batch]))
        for case, codes in zip(batch, got):
            assert names(codes) == reference(*case), case
