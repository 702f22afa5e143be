"""A site's grammar, and the Record of a chunk's hands read by it.

Layer: formats and I/O (:mod:`pipeline.formats`); imports :mod:`~pipeline.formats.logs.lines`,
:mod:`~pipeline.formats.logs.values`, the reason of a game not scored
(:func:`pipeline.formats.histories.unknown_game`), the hands' model and
:class:`~pipeline.hands.record.Record`, and the foundation modules.

This module owns what a line of a site's log can be (:class:`Kind`), what an action's amount
says (:class:`Amount`), the :class:`Grammar` a site's module fills in (its rules, verbs, games,
streets and time formats), and the reading every site shares (:func:`read`): a chunk's lines
classified, then each hand's fields, seats, actions, cards, collections and totals put in the
shared model, names matched to the hand's seated players and never guessed, and the rules a hand
is rejected by, the same for every site:

- a header whose game pokerpipe does not score (stud, draw) or that names none;
- bytes that are not UTF-8 text;
- a hand cut short: no line of the kind the site ends every hand with (its summary);
- a line that none of the site's rules reads (:data:`NOT_UNDERSTOOD`);
- no seat line, a seat number out of 1 to 10 or written twice;
- an action, a collection or a card line naming a player who is not seated;
- an action's words that are not one of the site's verbs.

What the Record says is the hand as written: the first small and big blind posted are the blinds,
a later one a post to enter (a small blind dead money, a big blind live); a verb the site gives as
both blinds (:data:`POST_BOTH`) is the small blind dead and the rest live.  An amount is either
the player's total on the street (:attr:`Amount.TO`) or the chips the action adds
(:attr:`Amount.ADDS`, the total then the sum of the player's live chips on the street so far), as
the site writes it.  Hole cards come from every line that shows them, the last one seen winning.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.arrays import as_mask, first_per, segment_cumsum
from pipeline.formats.histories import unknown_game
from pipeline.formats.logs import values
from pipeline.formats.logs.lines import Found, LogLines, Rule, classify
from pipeline.hands.model import VOCABULARIES, Action, Apart, vocabulary_column
from pipeline.hands.record import CODE, NO_CARD, SLOTS, UNKNOWN_CARD, Record
from pipeline.text import shown

NOT_UNDERSTOOD = "line not understood"
#: A verb that posts both blinds at once (``posts small & big blinds``): the small blind dead, the rest live.
POST_BOTH = "post both"


class Kind(StrEnum):
    """What a line of a site's log is, and the named groups its rule captures."""

    FIELDS = "fields"  # hand_id, game, small, big, stakes, currency, time, zone, table, max_seats,
    #                    button, tournament_id, buy_in, level: the first value of each per hand
    SEAT = "seat"  # seat, name, stack, out (not empty: the line marks the player out of the hand)
    ACTION = "action"  # name, verb, amount, all_in (not empty: the action puts the player all in)
    DEALT = "dealt"  # name, cards
    SHOW = "show"  # name, cards: a show at the showdown
    MUCK = "muck"  # name, cards (maybe none): a muck at the showdown
    SHOWED = "showed"  # name, cards: the summary's report of cards shown
    MUCKED = "mucked"  # name, cards: the summary's report of a muck (a muck unless the body has one)
    COLLECT = "collect"  # name, amount, pot
    UNCALLED = "uncalled"  # name, amount
    CASHOUT = "cashout"  # name, amount: the site paid the player (an all-in cash-out)
    CASHOUT_PAID = "cashout paid"  # name, amount: the player paid the site (insurance, a cashout risk)
    STREET = "street"  # street (its word), cards (those the street deals, not the earlier ones)
    BOARD = "board"  # cards: the whole board, as the summary writes it
    TOTAL = "total"  # pot, rake, fee_*: what the site takes besides the rake, added to it
    SUMMARY = "summary"  # the line that opens the summary
    TWICE = "twice"  # the board was run twice or more
    CANCELLED = "cancelled"
    IGNORE = "ignore"  # a line that says nothing the model needs (chat, a player leaving)


class Amount(StrEnum):
    """What an action's amount is."""

    TO = "to"  # the player's total on the street after it ("raises $2 to $4": 4)
    ADDS = "adds"  # the chips it adds ("calls $2", "raises [$2.50]")
    NONE = "none"  # no amount (folds, checks)


#: What a verb records: the action (or :data:`POST_BOTH`) and what its amount is.
Verb = tuple[Action | str, Amount]
_DEFAULT_BETTING = (("no limit", "no-limit"), ("pot limit", "pot-limit"), ("fixed limit", "fixed-limit"),
                    ("limit", "fixed-limit"))


class Grammar:
    """A site's log as its lines say it: subclassed once per site, its class attributes set.

    Attributes
    ----------
    name : str
        The source format, lower case (``"ggpoker"``): what ``--format`` and the summary call it.
    venue : str
        The site, as the hands' ``site`` names it (``"GGPoker"``).
    hand_start : str
        RE2 (and Python) pattern of what the first line of a hand starts with: enough to cut a
        file into hands and to tell the site's files by their first line.
    rules : tuple of Rule
        Every kind of line, most specific first: the first rule that matches a line reads it.
    verbs : mapping of str to Verb
        Each verb an :attr:`Kind.ACTION` rule captures, lower case, and what it records.
    games : mapping of str to (str, int)
        The site's names of its games (lower case, the betting words of :attr:`betting` taken
        off), each the game it is and the hole cards it deals a player.
    betting : tuple of (str, str)
        Words a game's name holds for its betting (lower case, the longer first) and the structure
        each names.
    streets : mapping of str to int
        The words a :attr:`Kind.STREET` rule captures (lower case), and the street each opens.
    time_formats : tuple of str
        strptime formats of the ``time`` field, tried in order.
    main_pots : tuple of str
        The ``pot`` texts of a collection (lower case) that name the main pot (or the only one).
    ends_with : Kind
        The kind of line every whole hand holds: a hand without one is cut short.
    head_lines : str
        RE2 pattern of the lines a file may hold before its first hand starts (blank lines
        always): what its first line is, for the site to recognise the file.
    """

    name: ClassVar[str]
    venue: ClassVar[str]
    hand_start: ClassVar[str]
    rules: ClassVar[tuple[Rule, ...]]
    verbs: ClassVar[Mapping[str, Verb]]
    games: ClassVar[Mapping[str, tuple[str, int]]]
    betting: ClassVar[tuple[tuple[str, str], ...]] = _DEFAULT_BETTING
    streets: ClassVar[Mapping[str, int]] = {"flop": 1, "turn": 2, "river": 3}
    time_formats: ClassVar[tuple[str, ...]] = ("%Y/%m/%d %H:%M:%S",)
    main_pots: ClassVar[tuple[str, ...]] = ("pot", "main pot")
    ends_with: ClassVar[Kind] = Kind.SUMMARY
    head_lines: ClassVar[str] = ""

    @classmethod
    def text(cls, piece: NDArray[np.uint8]) -> NDArray[np.uint8]:
        """A chunk's bytes as UTF-8, before they are read: the bytes as they are, unless the site
        writes another encoding too (an older client's), which its grammar converts here."""
        return piece

    @classmethod
    def amend(cls, record: Record) -> Record:
        """A chunk's Record as read, put right where the site's text says a thing the engine's
        reading cannot (the Record itself, unless a site's grammar says otherwise)."""
        return record

    @classmethod
    def game_of(cls, text: str) -> tuple[str, int, str | None] | None:
        """The game a header's game text names, the hole cards it deals and its betting (None where
        the text does not say); None for a game pokerpipe does not score.  The betting words may
        come before or after the game's, in any case, with or without a parenthesis."""
        plain = " ".join(text.lower().replace("(", " ").replace(")", " ").split())
        for words, structure in cls.betting:
            for game_words in (plain.removesuffix(" " + words), plain.removeprefix(words + " ")):
                if game_words != plain and game_words in cls.games:
                    game, cards = cls.games[game_words]
                    return game, cards, structure
        if plain in cls.games:
            game, cards = cls.games[plain]
            return game, cards, None
        return None


class _Rejects:
    """The first reason each hand is rejected for, with the line (row) and text of the fault."""

    def __init__(self, lines: LogLines) -> None:
        self.lines = lines
        self.reason = np.full(lines.hands, None, dtype=object)
        self.row = lines.starts.copy()
        self.mask = np.zeros(lines.hands, dtype=bool)

    def at(self, rows: NDArray[np.int64], reason: str | list[str]) -> None:
        """Reject the hands of the lines at ``rows`` (the first fault of each hand, unless it is
        rejected already; ``reason`` one for all or one per line)."""
        if not len(rows):
            return
        hands, first = np.unique(self.lines.hand_of[rows], return_index=True)
        fresh = ~self.mask[hands]
        for hand, at in zip(hands[fresh].tolist(), first[fresh].tolist()):
            self.reason[hand] = reason if isinstance(reason, str) else reason[at]
            self.row[hand] = rows[at]
        self.mask[hands] = True

    def excerpts(self) -> list[str | None]:
        """The text of each rejected hand's fault, None for the others."""
        texts: list[str | None] = [None] * self.lines.hands
        rejected = np.flatnonzero(self.mask)
        for hand, text in zip(rejected.tolist(), self.lines.texts(self.row[rejected])):
            texts[hand] = text
        return texts


@dataclass
class _Seats:
    """The seat lines kept (the first of each seat of a hand), and the names they seat.

    ``names`` holds the chunk's seated names, each once; a seat is the key (hand, code of its name).
    """

    hand: NDArray[np.int64]
    number: NDArray[np.int64]
    stack: NDArray[np.float64]
    out: NDArray[np.bool_]
    code: NDArray[np.int64]
    names: pa.Array
    keys: NDArray[np.int64]  # hand * len(names) + code, ascending
    slot_of_key: NDArray[np.int64]
    slot_grid: NDArray[np.int64]  # (hands, SLOTS): the seat line kept at each slot, -1 for none
    stack_grid: NDArray[np.float64]  # (hands, SLOTS): its stack, NaN for none

    def slots(self, hand: NDArray[np.int64], names: pa.Array) -> NDArray[np.int64]:
        """The slot of the player named at each hand, -1 where no such player is seated there."""
        if not len(hand):
            return np.zeros(0, dtype=np.int64)
        code = pc.index_in(names.cast(pa.large_string()), value_set=self.names).fill_null(-1)
        code_of = code.to_numpy(zero_copy_only=False).astype(np.int64)
        key = hand * max(len(self.names), 1) + code_of
        at = np.clip(np.searchsorted(self.keys, key), 0, max(len(self.keys) - 1, 0))
        hit = (code_of >= 0) & (len(self.keys) > 0)
        if len(self.keys):
            hit &= self.keys[at] == key
        return np.where(hit, self.slot_of_key[at] if len(self.keys) else -1, -1)


def _found(found: dict[str, Found], kind: Kind) -> Found:
    """The lines of ``kind``, none where the chunk holds none."""
    return found.get(kind, Found(rows=np.zeros(0, dtype=np.int64), fields={}))


def _per_hand(lines: LogLines, lines_found: Found, name: str) -> pa.Array:
    """(hands,) strings: the first text of group ``name`` each hand's lines captured (null for none)."""
    has = np.flatnonzero(lines_found.has(name))
    first = first_per(lines.hand_of[lines_found.rows[has]], lines.hands, has)
    column = lines_found.field(name)
    return column.take(pa.array(np.maximum(first, 0), pa.int64(), mask=first < 0)) if len(column) \
        else pa.nulls(lines.hands, pa.large_string())


def read(grammar: type[Grammar], lines: LogLines, bad_lines: NDArray[np.int64], first_line: int,
         hands_before: int) -> tuple[Record, dict[str, pa.Array]]:
    """Read every hand of a chunk (its ``lines``; those at ``bad_lines`` held bytes that were not
    UTF-8) by ``grammar``: the Record, and the winners' columns as the text writes them
    (:data:`pipeline.formats.histories.CARRIED`: hand, variant, stakes, time).

    ``first_line`` is the number of the chunk's first line in its file, ``hands_before`` the hands
    of the file before it."""
    found, understood, summary_at = classify(lines, grammar.rules, Kind.SUMMARY)
    rejects = _Rejects(lines)
    fields_found = _found(found, Kind.FIELDS)
    header = {name: _per_hand(lines, fields_found, name) for name in
              ("hand_id", "game", "small", "big", "stakes", "currency", "time", "zone", "table",
               "max_seats", "button", "tournament_id", "buy_in", "level")}
    game = _games(grammar, lines, rejects, header["game"])
    rejects.at(np.asarray(bad_lines, dtype=np.int64), "bytes that are not UTF-8 text")
    ends = _found(found, grammar.ends_with).rows
    complete = np.zeros(lines.hands, dtype=bool)
    complete[lines.hand_of[ends]] = True
    rejects.at(lines.starts[~complete], f"hand cut short: no {grammar.ends_with} line")
    unread = np.flatnonzero(~understood)
    rejects.at(unread, NOT_UNDERSTOOD)
    seats = _seats(lines, rejects, _found(found, Kind.SEAT))
    _named(lines, rejects, seats, _found(found, Kind.DEALT), "a dealt line")
    actions = _actions(grammar, lines, rejects, found, seats, summary_at)
    dealt = _dealt(lines, seats, actions, found)
    hand = _hand_columns(grammar, lines, header, game, actions)
    small_blind = hand["small_blind"].to_numpy(zero_copy_only=False)
    acts = _action_columns(lines, actions, small_blind)
    hand["ante"] = acts.pop("ante")
    received, cashed_out, returned, main_pot = _paid(grammar, lines, rejects, found, seats, dealt)
    pot, rake = _totals(lines, _found(found, Kind.TOTAL))
    button = header["button"].cast(pa.string())
    button_seat = np.nan_to_num(values.amounts(button), nan=0).astype(np.int64)
    slot_of = np.where(dealt, seats.slot_grid, -1).ravel()
    row = np.where(rejects.mask, rejects.row, lines.starts)
    record = Record(
        number=hands_before + 1 + np.arange(lines.hands, dtype=np.int64),
        line=first_line + row, apart=_apart(lines, rejects, found),
        problem=rejects.reason, excerpt=rejects.excerpts(), hand=hand,
        button=np.where((button_seat >= 1) & (button_seat <= SLOTS), button_seat - 1, -1).astype(np.int8),
        seat=np.where(dealt, np.arange(1, SLOTS + 1, dtype=np.int8), 0).astype(np.int8),
        player=pa.DictionaryArray.from_arrays(
            pa.array(seats.code[np.maximum(slot_of, 0)].astype(np.int32) if len(seats.code)
                     else np.zeros(len(slot_of), np.int32), mask=slot_of < 0), seats.names),
        stack=np.where(dealt, seats.stack_grid, np.nan),
        holes=_holes(lines, found, seats, dealt, game[1]),
        board=values.board_codes(_board(grammar, lines, found)), **acts,
        received=received, cashed_out=cashed_out, returned=returned, pot=pot, rake=rake,
        main_pot=main_pot.astype(bool))
    record = grammar.amend(record)
    stakes = pc.coalesce(header["stakes"], pc.binary_join_element_wise(
        header["small"], header["big"], pa.scalar("/", pa.large_string()))).cast(pa.string())
    carried = {"hand": header["hand_id"].cast(pa.string()), "variant": header["game"].cast(pa.string()),
               "stakes": stakes, "time": header["time"].cast(pa.string())}
    return record, carried


def _games(grammar: type[Grammar], lines: LogLines, rejects: _Rejects, texts: pa.Array
           ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Reject the hands whose header names no game, or one pokerpipe does not score; return per
    hand the code of its game (-1 for none), the hole cards it deals (2 for none) and the code of its
    betting (-1 for none), each different text looked up once."""
    names, at = values.distinct(texts)
    read = [grammar.game_of(str(name)) for name in names]
    game = np.array([VOCABULARIES["game"].index(g[0]) if g else -1 for g in read] + [-1])[at]
    cards = np.array([g[1] if g else 2 for g in read] + [2])[at]
    betting = np.array([VOCABULARIES["betting"].index(g[2]) if g and g[2] else -1 for g in read] + [-1])[at]
    rejects.at(lines.starts[at == len(names)], "hand header not understood: no game named")
    unknown = np.flatnonzero((game < 0) & (at < len(names)))
    rejects.at(lines.starts[unknown], [unknown_game(shown(str(names[at[i]]))) for i in unknown.tolist()])
    return game, cards, betting


def _seats(lines: LogLines, rejects: _Rejects, found: Found) -> _Seats:
    """The seat lines of every hand (:class:`_Seats`); a hand without one, with a seat number out of 1 to 10,
    or with one written twice, rejected."""
    hand = lines.hand_of[found.rows]
    number = np.nan_to_num(values.amounts(found.field("seat")), nan=0).astype(np.int64)
    bad = (number < 1) | (number > SLOTS)
    rejects.at(found.rows[bad], "seat number out of 1 to 10")
    key = hand * (SLOTS + 1) + np.clip(number, 0, SLOTS)
    order = np.argsort(key, kind="stable")
    again = np.zeros(len(key), dtype=bool)
    again[order[1:]] = key[order[1:]] == key[order[:-1]]
    rejects.at(found.rows[again], "a seat written twice")
    has_seat = np.zeros(lines.hands, dtype=bool)
    has_seat[hand] = True
    rejects.at(lines.starts[~has_seat], "no seat lines")
    keep = ~bad & ~again
    hand, number = hand[keep], number[keep]
    name = found.field("name").filter(pa.array(keep)).cast(pa.large_string())
    stack = values.amounts(found.field("stack").filter(pa.array(keep)))
    out = found.has("out")[keep]
    names = pc.unique(name)
    code = pc.index_in(name, value_set=names).to_numpy(zero_copy_only=False).astype(np.int64)
    keys = hand * max(len(names), 1) + code
    order = np.argsort(keys, kind="stable")
    stack = np.where(np.isnan(stack), np.inf, stack)  # a stack not written is not known
    grid = np.full((lines.hands, SLOTS), -1, dtype=np.int64)
    grid[hand, number - 1] = np.arange(len(hand))
    return _Seats(hand=hand, number=number, stack=stack, out=out, code=code, names=names,
                  keys=keys[order], slot_of_key=(number - 1)[order], slot_grid=grid,
                  stack_grid=np.where(grid >= 0, stack[np.maximum(grid, 0)] if len(hand) else 0.0, np.nan))


@dataclass
class _Actions:
    """Every action of a seated player, in line order (shape (k,) each): its row, slot, action code
    (of :data:`~pipeline.hands.record.CODE`, or -1 for :data:`POST_BOTH`), amount, whether the
    amount adds chips, whether it says all in, and its street."""

    rows: NDArray[np.int64]
    slot: NDArray[np.int64]
    code: NDArray[np.int64]
    amount: NDArray[np.float64]
    adds: NDArray[np.bool_]
    all_in: NDArray[np.bool_]
    street: NDArray[np.int64]


def _named(lines: LogLines, rejects: _Rejects, seats: _Seats, lines_found: Found,
           what: str) -> NDArray[np.int64]:
    """The slot of the player each line of ``lines_found`` names (group ``name``), -1 for none; a
    line naming a player who is not seated rejects its hand."""
    slot = seats.slots(lines.hand_of[lines_found.rows], lines_found.field("name"))
    rejects.at(lines_found.rows[slot < 0], f"{what} names a player who is not seated")
    return slot


def _actions(grammar: type[Grammar], lines: LogLines, rejects: _Rejects, found: dict[str, Found],
             seats: _Seats, summary_at: NDArray[np.int64]) -> _Actions:
    """The actions of every hand (:class:`_Actions`): its action lines by their verbs, its shows and
    mucks, and the summary's mucks of players the body does not show mucking."""
    acted = _found(found, Kind.ACTION)
    slot = _named(lines, rejects, seats, acted, "an action")
    verbs, at = values.distinct(pc.utf8_lower(acted.field("verb")))
    read = [grammar.verbs.get(" ".join(str(verb).split())) for verb in verbs]
    known = np.array([verb is not None for verb in read] + [False])[at]
    rejects.at(acted.rows[~known], "an action whose words are not the site's")
    code = np.array([(-1 if verb[0] == POST_BOTH else CODE[Action(verb[0])]) if verb else -2 for verb in read]
                    + [-2])[at]
    adds = np.array([bool(verb and verb[1] == Amount.ADDS) for verb in read] + [False])[at]
    amount = values.amounts(acted.field("amount"))
    parts = [(acted.rows, slot, code, amount, adds, acted.has("all_in"))]
    for kind, action in ((Kind.SHOW, Action.SHOW), (Kind.MUCK, Action.MUCK)):
        shown_lines = _found(found, kind)
        count = len(shown_lines.rows)
        parts.append((shown_lines.rows, _named(lines, rejects, seats, shown_lines, f"a {kind} line"),
                      np.full(count, CODE[action]), np.full(count, np.nan), np.zeros(count, bool),
                      np.zeros(count, bool)))
    mucked = _found(found, Kind.MUCKED)
    muck_slot = _named(lines, rejects, seats, mucked, "a summary's muck")
    body = parts[2]
    body_keys = lines.hand_of[body[0]] * SLOTS + body[1]
    alone = ~np.isin(lines.hand_of[mucked.rows] * SLOTS + muck_slot, body_keys)
    count = int(alone.sum())
    parts.append((mucked.rows[alone], muck_slot[alone], np.full(count, CODE[Action.MUCK]),
                  np.full(count, np.nan), np.zeros(count, bool), np.zeros(count, bool)))
    rows, slot, code, amount, adds, all_in = (np.concatenate(column) for column in zip(*parts))
    order = np.argsort(rows, kind="stable")
    keep = order[(slot[order] >= 0) & (code[order] >= -1)]
    rows = rows[keep]
    return _Actions(rows=rows, slot=slot[keep], code=code[keep], amount=amount[keep].astype(np.float64),
                    adds=adds[keep], all_in=all_in[keep],
                    street=_streets(grammar, lines, _found(found, Kind.STREET), rows))


def _streets(grammar: type[Grammar], lines: LogLines, markers: Found, rows: NDArray[np.int64]
             ) -> NDArray[np.int64]:
    """The street of each line at ``rows``: the furthest its hand's street lines opened before it, 0
    (before the flop) without one."""
    words, at = values.distinct(pc.utf8_lower(markers.field("street")))
    opened = np.array([grammar.streets.get(" ".join(str(word).split()), 0) for word in words] + [0])[at]
    hand = lines.hand_of[markers.rows]
    so_far = np.maximum.accumulate(hand * 4 + opened) - hand * 4 if len(hand) else opened
    before = np.searchsorted(markers.rows, rows, side="right") - 1
    same = (before >= 0) & (hand[np.maximum(before, 0)] == lines.hand_of[rows]) if len(hand) else \
        np.zeros(len(rows), dtype=bool)
    found: NDArray[np.int64] = np.where(same, so_far[np.maximum(before, 0)] if len(hand) else 0, 0)
    return found


def _dealt(lines: LogLines, seats: _Seats, actions: _Actions, found: dict[str, Found]) -> NDArray[np.bool_]:
    """(hands, SLOTS) bool: a player is dealt in at the slot: seated, and not marked out unless the
    player acts or collects in the hand."""
    dealt: NDArray[np.bool_] = seats.slot_grid >= 0
    if seats.out.any():
        part = np.zeros((lines.hands, SLOTS), dtype=bool)
        part[lines.hand_of[actions.rows], actions.slot] = True
        collected = _found(found, Kind.COLLECT)
        slot = seats.slots(lines.hand_of[collected.rows], collected.field("name"))
        part[lines.hand_of[collected.rows[slot >= 0]], slot[slot >= 0]] = True
        marked = (seats.hand[seats.out], seats.number[seats.out] - 1)
        dealt[marked] = part[marked]
    return dealt


def _hand_columns(grammar: type[Grammar], lines: LogLines, header: dict[str, pa.Array],
                  game: tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]],
                  actions: _Actions) -> dict[str, pa.Array]:
    """The Record's per-hand columns (:data:`pipeline.hands.model.HANDS` values), the ante aside."""
    hands = lines.hands
    code, _, betting = game
    tournament = header["tournament_id"].cast(pa.string())
    currency = pc.coalesce(values.currencies(header["currency"]), values.currencies(header["big"]))
    levels, at = values.distinct(header["level"])
    numbers = [values.level_number(str(text).strip()) for text in levels]
    level = np.array([-1 if number is None else number for number in numbers] + [-1])[at]
    max_seats = np.nan_to_num(values.amounts(header["max_seats"]), nan=0).astype(np.int64)
    zones = header["zone"].cast(pa.string())
    return {"hand_id": header["hand_id"].cast(pa.string()),
            "site": pa.DictionaryArray.from_arrays(pa.array(np.zeros(hands, np.int32)),
                                                   pa.array([grammar.venue])),
            "table": header["table"].cast(pa.string()),
            "time": values.utc_times(header["time"], zones, grammar.time_formats), "time_zone": zones,
            "variant": header["game"].cast(pa.string()),
            "game": vocabulary_column("game", np.maximum(code, 0), present=code >= 0),
            "betting": vocabulary_column("betting", np.maximum(betting, 0), present=betting >= 0),
            # Tournament chips are no currency.
            "currency": pc.if_else(tournament.is_null(), currency, pa.scalar(None, pa.string())),
            "small_blind": values.floats(values.amounts(header["small"])),
            "big_blind": values.floats(values.amounts(header["big"])), "tournament_id": tournament,
            "buy_in": values.floats(values.buy_ins(header["buy_in"])),
            "level": pa.array(level.astype(np.int16), mask=level < 0),
            "max_seats": pa.array(max_seats.astype(np.int8), mask=(max_seats < 1) | (max_seats > SLOTS))}


def _action_columns(lines: LogLines, actions: _Actions, small_blind: NDArray[np.float64]) -> dict[str, Any]:
    """The Record's per-action arrays and, under ``"ante"``, each hand's ante (the most a post of an
    ante says), null where none is posted.

    The hand's first small and big blind are its blinds, a later one a post to enter; a post of
    both blinds is the small blind, dead, then the rest, live.  An amount that adds chips sets the
    total of a bet or raise as the player's live chips on the street so far."""
    rows, slot, code, amount = actions.rows, actions.slot, actions.code.copy(), actions.amount
    adds, all_in, street = actions.adds, actions.all_in.copy(), actions.street
    hand = lines.hand_of[rows]
    for blind, later in ((Action.POST_SMALL_BLIND, Action.POST_DEAD), (Action.POST_BIG_BLIND, Action.POST)):
        posts = np.flatnonzero(code == CODE[blind])
        code[posts[1:][hand[posts][1:] == hand[posts][:-1]]] = CODE[later]
    texts = lines.take(rows)
    both = code == -1
    if both.any():
        copies = np.repeat(np.arange(len(rows)), np.where(both, 2, 1))
        second = np.zeros(len(copies), dtype=bool)
        second[1:] = copies[1:] == copies[:-1]
        dead = both[copies] & ~second
        code, amount, adds, all_in = code[copies], amount[copies], adds[copies], all_in[copies]
        hand, street, slot = hand[copies], street[copies], slot[copies]
        texts = texts.take(pa.array(copies, pa.int64()))
        code[dead], code[second] = CODE[Action.POST_DEAD], CODE[Action.POST]
        # Amounts are decimal: the difference is rounded back to far below a cent.
        amount = amount.copy()
        amount[second] = np.round(amount[second] - small_blind[hand[second]], 9)
        amount[dead], all_in[dead] = small_blind[hand[dead]], False
    posting = np.isin(code, [CODE[a] for a in Action if a.name.startswith("POST")])
    setting = np.isin(code, [CODE[Action.BET], CODE[Action.RAISE]])
    live = np.isin(code, [CODE[a] for a in (Action.POST_SMALL_BLIND, Action.POST_BIG_BLIND,
                                             Action.POST_STRADDLE, Action.POST, Action.CALL, Action.BET,
                                             Action.RAISE)])
    # What an action that adds chips brings the player's street total to: the sum of their live chips.
    flat = (hand * 4 + street) * SLOTS + slot
    order = np.argsort(flat, kind="stable")
    running = np.empty(len(rows) if not both.any() else len(code))
    running[order] = segment_cumsum(np.where(live, np.nan_to_num(amount), 0.0)[order], flat[order])
    to = np.where(posting, amount, np.where(setting, np.where(adds, np.round(running, 9), amount), np.nan))
    written = np.where(posting | (code == CODE[Action.CALL]) | (setting & adds) | (code == CODE[Action.BET]),
                       amount, np.nan)
    ante = np.full(len(small_blind), np.nan)
    antes = code == CODE[Action.POST_ANTE]
    np.fmax.at(ante, hand[antes], amount[antes])
    return {"action_hand": hand.astype(np.int64), "slot": slot.astype(np.int8),
            "action": code.astype(np.int8),
            "street": street.astype(np.int8), "to": to, "written": written, "all_in": all_in.astype(bool),
            "text": texts, "ante": values.floats(ante)}


def _paid(grammar: type[Grammar], lines: LogLines, rejects: _Rejects, found: dict[str, Found], seats: _Seats,
          dealt: NDArray[np.bool_]) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64],
                                             NDArray[np.bool_]]:
    """(hands, SLOTS) each: what each seat collected, was paid by the site (less what it paid the
    site) and was returned; and who collected the main pot.  0 where a seat dealt in has none, NaN
    at a slot no one is dealt into; returned is NaN throughout for a site that writes no uncalled
    bets."""
    hands = lines.hands
    received = np.where(dealt, 0.0, np.nan)
    main_pot = np.zeros((hands, SLOTS), dtype=bool)
    collected = _found(found, Kind.COLLECT)
    slot = _named(lines, rejects, seats, collected, "a collection")
    at = slot >= 0
    hand = lines.hand_of[collected.rows]
    np.add.at(received, (hand[at], slot[at]), np.nan_to_num(values.amounts(collected.field("amount"))[at]))
    pots, which = values.distinct(pc.utf8_lower(collected.field("pot")))
    main = np.array([" ".join(str(pot).split()) in grammar.main_pots for pot in pots] + [False])[which]
    main_pot[hand[at & main], slot[at & main]] = True
    cashed_out = np.zeros((hands, SLOTS))
    for kind, sign in ((Kind.CASHOUT, 1.0), (Kind.CASHOUT_PAID, -1.0)):
        lines_found = _found(found, kind)
        slot = _named(lines, rejects, seats, lines_found, "a cash-out")
        at = slot >= 0
        np.add.at(cashed_out, (lines.hand_of[lines_found.rows[at]], slot[at]),
                  sign * np.nan_to_num(values.amounts(lines_found.field("amount"))[at]))
    writes_uncalled = any(rule.kind == Kind.UNCALLED for rule in grammar.rules)
    returned = np.where(dealt, 0.0, np.nan) if writes_uncalled else np.full((hands, SLOTS), np.nan)
    back = _found(found, Kind.UNCALLED)
    slot = _named(lines, rejects, seats, back, "an uncalled bet")
    at = slot >= 0
    np.add.at(returned, (lines.hand_of[back.rows[at]], slot[at]),
              np.nan_to_num(values.amounts(back.field("amount"))[at]))
    return received, cashed_out, returned, main_pot & dealt


def _totals(lines: LogLines, totals: Found) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """(hands,) each: the total pot and what the site took from it (the rake and every ``fee_*``
    group: jackpot, bingo, tax), as the first total line of each hand writes them; NaN for none."""
    pot, rake = np.full(lines.hands, np.nan), np.full(lines.hands, np.nan)
    if not len(totals.rows):
        return pot, rake
    first = first_per(lines.hand_of[totals.rows], lines.hands, np.arange(len(totals.rows)))
    has = first >= 0
    taken = values.amounts(totals.field("rake"))
    for name in totals.fields:
        if name.startswith("fee_"):
            fee = np.nan_to_num(values.amounts(totals.field(name)))
            taken = np.where(np.isnan(taken), np.nan, taken + fee)
    pot[has] = values.amounts(totals.field("pot"))[first[has]]
    rake[has] = taken[first[has]]
    return pot, rake


def _apart(lines: LogLines, rejects: _Rejects, found: dict[str, Found]) -> NDArray[np.object_]:
    """(hands,) object: why each hand is set apart (run twice, cancelled), None for none."""
    apart = np.full(lines.hands, None, dtype=object)
    for kind, reason in ((Kind.TWICE, Apart.RUN_TWICE), (Kind.CANCELLED, Apart.CANCELLED)):
        flagged = np.zeros(lines.hands, dtype=bool)
        flagged[lines.hand_of[_found(found, kind).rows]] = True
        apart[flagged & ~rejects.mask] = str(reason)
    return apart


def _board(grammar: type[Grammar], lines: LogLines, found: dict[str, Found]) -> pa.Array:
    """(hands,) strings: each hand's board, as its summary writes it, else the cards its streets
    dealt, in order (the first run's, for a board run twice); "" for none."""
    board = values.tidy_cards(_per_hand(lines, _found(found, Kind.BOARD), "cards"))
    markers = _found(found, Kind.STREET)
    if len(markers.rows):
        words, at = values.distinct(pc.utf8_lower(markers.field("street")))
        street = np.array([grammar.streets.get(" ".join(str(word).split()), 0) for word in words] + [0])[at]
        cards = values.tidy_cards(markers.field("cards")).fill_null("")
        hand = lines.hand_of[markers.rows]
        dealt = [pa.nulls(lines.hands, pa.large_string()).fill_null("")]
        for number in (1, 2, 3):  # each street's first line in the hand: the first run
            rows = np.flatnonzero(street == number)
            first = first_per(hand[rows], lines.hands, rows)
            dealt.append(cards.take(pa.array(np.maximum(first, 0), pa.int64(), mask=first < 0)).fill_null(""))
        streets = pc.utf8_trim(pc.binary_join_element_wise(*dealt, pa.scalar(" ", pa.large_string())),
                               characters=" ")
        board = pc.coalesce(board, streets)
    return board.fill_null("")


def _holes(lines: LogLines, found: dict[str, Found], seats: _Seats, dealt: NDArray[np.bool_],
           hole_cards: NDArray[np.int64]) -> NDArray[np.uint8]:
    """(hands, SLOTS, K) uint8: the hole cards each seat dealt in is seen with, from every line that
    shows them (dealt, shown, mucked, collected with, the summary's), the last one of a slot
    winning; K the most cards a hand of the chunk deals a player, unknown where not seen, none past
    a slot's last.  A player dealt a card a line (``Dealt to X [Ks]``, then ``[6d]``) is dealt
    them all, in order."""
    width = max(2, int(hole_cards.max())) if lines.hands else 2
    holes = np.where(dealt[:, :, None] & (np.arange(width) < hole_cards[:, None, None]), UNKNOWN_CARD,
                     NO_CARD).astype(np.uint8)
    rows, slots, texts = [], [], []
    for kind in (Kind.DEALT, Kind.SHOW, Kind.MUCK, Kind.SHOWED, Kind.MUCKED, Kind.COLLECT):
        lines_found = _found(found, kind)
        has = lines_found.has("cards")
        if not has.any():
            continue
        picked = pa.array(has)
        named = lines_found.field("name").filter(picked)
        kind_rows = lines_found.rows[has]
        kind_slots = seats.slots(lines.hand_of[kind_rows], named)
        kind_texts = values.tidy_cards(lines_found.field("cards").filter(picked))
        if kind == Kind.DEALT:
            player = lines.hand_of[kind_rows] * SLOTS + kind_slots
            kind_rows, kind_slots, kind_texts = _joined(player, kind_rows, kind_slots, kind_texts)
        rows.append(kind_rows)
        slots.append(kind_slots)
        texts.append(kind_texts)
    if not rows:
        return holes
    row, slot, cards = np.concatenate(rows), np.concatenate(slots), pa.concat_arrays(texts)
    hand = lines.hand_of[row]
    seen = np.flatnonzero((slot >= 0) & dealt[hand, np.maximum(slot, 0)])
    seen = seen[np.argsort(row[seen], kind="stable")]
    key = (hand * SLOTS + slot)[seen]
    if len(key):  # a slot seen twice: its last cards count
        seen = seen[len(key) - 1 - np.unique(key[::-1], return_index=True)[1]]
    values.put_cards(holes, hand[seen], slot[seen], cards.take(pa.array(seen, pa.int64())), hole_cards)
    return holes


def _joined(key: NDArray[np.int64], rows: NDArray[np.int64], slots: NDArray[np.int64], texts: pa.Array
            ) -> tuple[NDArray[np.int64], NDArray[np.int64], pa.Array]:
    """The lines of each ``key`` (a player's dealt lines, in line order) as one: the last line's row
    and slot, and their texts joined in order by a space."""
    if not len(key) or (np.diff(key) != 0).all() and len(np.unique(key)) == len(key):
        return rows, slots, texts
    order = np.argsort(key, kind="stable")
    starts = np.flatnonzero(np.concatenate([[True], key[order][1:] != key[order][:-1]]))
    last = np.append(starts[1:], len(order)) - 1
    grouped = pa.ListArray.from_arrays(pa.array(np.append(starts, len(order)), pa.int32()),
                                       texts.take(pa.array(order, pa.int64())))
    return rows[order][last], slots[order][last], pc.binary_join(grouped, pa.scalar(" ", texts.type))


def matched(texts: pa.Array, pattern: str) -> NDArray[np.bool_]:
    """Which of ``texts`` match the RE2 ``pattern`` (for a site's own checks)."""
    return as_mask(pc.match_substring_regex(texts, pattern))
