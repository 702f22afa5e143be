"""Records built by hand for the tests of the hands layer: a few hands written as Python lists."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa

from pipeline.hands.model import Action
from pipeline.hands.record import CODE, NO_CARD, SLOTS, Record
from pipeline.poker import cards


@dataclass
class Hand:
    """One hand: stacks by slot (None: nobody), actions as (slot, action, street, to)."""

    stacks: list[float | None]
    actions: list[tuple[int, Action, int, float | None]]
    button: int = -1
    board: str = ""
    holes: dict[int, str] = field(default_factory=dict)
    received: dict[int, float] = field(default_factory=dict)
    cashed_out: dict[int, float] = field(default_factory=dict)  # from the site (negative: paid to it)
    main_pot: list[int] | None = None  # the slots the record names as the main pot's winners
    names: list[str] | None = None
    problem: str | None = None
    apart: str | None = None


def codes(text: str) -> list[int]:
    return [254 if word == "??" else cards.card_code(word) for word in text.split()]


def record_of(hands: list[Hand]) -> Record:
    """The Record of the hands, in order; seat numbers are slot + 1."""
    h = len(hands)
    seat = np.zeros((h, SLOTS), np.int8)
    stack = np.zeros((h, SLOTS))
    holes = np.full((h, SLOTS, 2), NO_CARD, np.uint8)
    board = np.full((h, 5), NO_CARD, np.uint8)
    received = np.full((h, SLOTS), np.nan)
    cashed_out = np.zeros((h, SLOTS))
    main_pot = np.zeros((h, SLOTS), bool)
    names: list[str | None] = []
    action_rows: list[tuple[int, int, int, int, float]] = []
    for row, hand in enumerate(hands):
        for slot, value in enumerate(hand.stacks):
            if value is not None:
                seat[row, slot] = slot + 1
                stack[row, slot] = value
                received[row, slot] = hand.received.get(slot, 0.0)
        names += [(hand.names[slot] if hand.names else f"player {slot + 1}")
                  if slot < len(hand.stacks) and hand.stacks[slot] is not None else None
                  for slot in range(SLOTS)]
        for slot, chips in hand.cashed_out.items():
            cashed_out[row, slot] = chips
        main_pot[row, hand.main_pot or []] = True
        for slot, text in hand.holes.items():
            holes[row, slot] = codes(text)
        board[row, :len(codes(hand.board))] = codes(hand.board)
        for slot, action, street, to in hand.actions:
            action_rows.append((row, slot, CODE[action], street, np.nan if to is None else to))
    table = np.array(action_rows, dtype=float).reshape(-1, 5)
    n = len(table)
    return Record(
        number=np.arange(1, h + 1), line=np.arange(1, h + 1),
        problem=np.array([hand.problem for hand in hands], dtype=object), excerpt=[None] * h,
        apart=np.array([hand.apart for hand in hands], dtype=object),
        hand={"hand_id": pa.array([str(i + 1) for i in range(h)]), "game": pa.array(["holdem"] * h)},
        button=np.array([hand.button for hand in hands], np.int8), seat=seat,
        player=pa.array(names, pa.string()), stack=stack, holes=holes, board=board,
        action_hand=table[:, 0].astype(np.int64), slot=table[:, 1].astype(np.int8),
        action=table[:, 2].astype(np.int8), street=table[:, 3].astype(np.int8), to=table[:, 4],
        written=np.full(n, np.nan), all_in=np.zeros(n, bool), received=received,
        cashed_out=cashed_out, returned=np.full((h, SLOTS), np.nan), pot=np.full(h, np.nan),
        rake=np.full(h, np.nan), main_pot=main_pot if main_pot.any() else None)
