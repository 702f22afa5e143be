"""Winamax hand histories: the site's grammar.

Layer: formats and I/O (:mod:`pipeline.formats`); imports the site-log engine
(:mod:`pipeline.formats.logs`), the hands' model and replay, and :mod:`pipeline.text`.

This module owns what Winamax's lines say (:class:`Winamax`): a hand opens with
``Winamax Poker - CashGame - HandId: #5281577-471-1382586707 - Holdem no limit (0.50€/1€) -
2013/10/24 03:51:47 UTC`` (the id is the table's, the hand's number at it and the Unix time); a
tournament's header names its buy-in and level (``Tournament "BOOSTER" buyIn: €4.50 + €4.50 + €1
level: 4``), its stakes may lead with the ante (``(25/150/300)``) and its table's name holds the
tournament's id (``BOOSTER(153100000)#052``).  Amounts carry the sign after them (``0.50€``);
a raise is written ``raises 1.50€ to 2.50€`` (its total last), a call by the chips it adds.  The
posts come under ``*** ANTE/BLINDS ***``, the actions under ``*** PRE-FLOP ***`` and the
streets; a player back at the table posts ``out of position`` (the engine's later blinds: a small
one dead, a big one live).  The seats list the players sitting out too, unmarked: a player is
dealt in when it acts.  Every player at a showdown shows; the summary's ``mucked`` is such a
player's loss, not a muck, and its ``won`` repeats the collection.

What the engine's reading cannot say is put right by the grammar's hooks: Winamax writes no
uncalled bet, a bet nobody called being in its bettor's collection and in the total pot, which is
net of the rake too (:meth:`Winamax.amend` takes it back out); the older client wrote
Windows-1252 (:func:`utf8_text`); some tables number their seats from 0 (:func:`seats_from_one`).
"""

from __future__ import annotations

import re

import numpy as np
from numpy.typing import NDArray

from pipeline.formats.logs.grammar import Amount, Grammar, Kind
from pipeline.formats.logs.lines import Rule
from pipeline.formats.logs.reader import site_of
from pipeline.formats.logs.values import AMOUNT
from pipeline.hands.model import Action
from pipeline.hands.record import Record
from pipeline.hands.replay import replay, tolerance
from pipeline.text import is_utf8, utf8_faults

_POSITIONS = r"(?: \((?:button|small blind|big blind)\))*"
_TIME = r"(?P<time>[0-9]{4}/[0-9]{2}/[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}) (?P<zone>[A-Z]+)"


class Winamax(Grammar):
    """Winamax's lines, verbs and games."""

    name = "winamax"
    venue = "Winamax"
    hand_start = r"Winamax Poker - "
    rules = (
        Rule(Kind.FIELDS, r"Winamax Poker - (?:CashGame|Go Fast \"[^\"]*\"|Tournament \".*\" "
                          r"buyIn: (?P<buy_in>.+?)(?: level: (?P<level>[0-9]+))?) - "
                          r"HandId: #(?P<hand_id>[0-9]+-[0-9]+-[0-9]+) - (?P<game>[^(]+?) "
                          rf"\((?:{AMOUNT}/)?(?P<small>{AMOUNT})/(?P<big>{AMOUNT})\) - {_TIME}",
             prefix="Winamax Poker - "),
        # The table of a tournament is named after it, its id in brackets: "BOOSTER(153100000)#052".
        Rule(Kind.FIELDS, r"Table: '(?P<table>.*?(?:\((?P<tournament_id>[0-9]+)\)#[0-9]+)?)' "
                          r"(?P<max_seats>[0-9]+)-max(?: \([a-z ]+\))? "
                          r"Seat #(?P<button>[0-9]+) is the button",
             prefix="Table: '"),
        # The seats list the players sitting out too, unmarked (a stack of 0, or none, at most):
        # every seat is "out" unless its player acts, as every player dealt in does (a post, a fold).
        Rule(Kind.SEAT, rf"Seat (?P<seat>[0-9]+): (?P<name>.+) (?P<out>\()(?P<stack>{AMOUNT})?"
                        rf"(?:, {AMOUNT} bounty)?\)", prefix="Seat ", where="body"),
        Rule(Kind.SUMMARY, r"\*\*\* SUMMARY \*\*\*", prefix="*** "),
        Rule(Kind.STREET, r"\*\*\* (?P<street>FLOP|TURN|RIVER) \*\*\*(?: \[[^\]]*\])? ?\[(?P<cards>[^\]]*)\]",
             prefix="*** ", where="body"),
        Rule(Kind.IGNORE, r"\*\*\* (?:ANTE/BLINDS|PRE-FLOP|SHOW DOWN) \*\*\*", prefix="*** ", where="body"),
        Rule(Kind.DEALT, r"Dealt to (?P<name>.+) \[(?P<cards>[^\]]*)\]", prefix="Dealt to ", where="body"),
        # The actions, the shows and the collections come without a prefix to find them by: their
        # rules run most frequent first, each over the lines no rule took before it.
        Rule(Kind.ACTION, r"(?P<name>.+) (?P<verb>folds|checks)", where="body"),
        Rule(Kind.ACTION, rf"(?P<name>.+) (?P<verb>calls|bets|posts (?:small blind|big blind|ante)) "
                          rf"(?P<amount>{AMOUNT})(?: out of position)?(?P<all_in> and is all-in)?",
             where="body"),
        Rule(Kind.ACTION, rf"(?P<name>.+) (?P<verb>raises) {AMOUNT} to (?P<amount>{AMOUNT})"
                          r"(?P<all_in> and is all-in)?", where="body"),
        Rule(Kind.COLLECT, rf"(?P<name>.+) collected (?P<amount>{AMOUNT}) from "
                           r"(?P<pot>pot|main pot|side pot(?: ?-?[0-9]+)?)", where="body"),
        Rule(Kind.SHOW, r"(?P<name>.+) shows \[(?P<cards>[^\]]*)\](?: \(.*\))?", where="body"),
        # The total pot is what the winners collected: net of the rake, with the uncalled bet in it
        # (amend makes it the chips put in).
        Rule(Kind.TOTAL, rf"Total pot (?P<pot>{AMOUNT}) \| (?:No rake|Rake (?P<rake>{AMOUNT}))",
             prefix="Total pot ", where="summary"),
        Rule(Kind.BOARD, r"Board: \[(?P<cards>[^\]]*)\]", prefix="Board: [", where="summary"),
        Rule(Kind.SHOWED, rf"Seat [0-9]+: (?P<name>.+?){_POSITIONS} showed \[(?P<cards>[^\]]*)\] and .*",
             prefix="Seat ", where="summary"),
        # "mucked" is a player who showed and lost, "won" a collection written again.
        Rule(Kind.IGNORE, r"Seat [0-9]+: .+ (?:mucked|won .*)", prefix="Seat ", where="summary"),
    )
    verbs = {
        "posts small blind": (Action.POST_SMALL_BLIND, Amount.TO),
        "posts big blind": (Action.POST_BIG_BLIND, Amount.TO),
        "posts ante": (Action.POST_ANTE, Amount.TO),
        "folds": (Action.FOLD, Amount.NONE), "checks": (Action.CHECK, Amount.NONE),
        "calls": (Action.CALL, Amount.ADDS), "bets": (Action.BET, Amount.ADDS),
        "raises": (Action.RAISE, Amount.TO),
    }
    games = {"holdem": ("holdem", 2), "omaha": ("omaha", 4), "omaha hi/lo": ("omaha-hilo", 4),
             "5 card omaha": ("omaha", 5), "5 card omaha hi/lo": ("omaha-hilo", 5)}
    time_formats = ("%Y/%m/%d %H:%M:%S",)

    @classmethod
    def text(cls, piece: NDArray[np.uint8]) -> NDArray[np.uint8]:
        """A chunk's bytes as the engine reads them: UTF-8 (an older client's Windows-1252 decoded,
        :func:`utf8_text`), and the seats of a table numbered from 0 numbered from 1
        (:func:`seats_from_one`)."""
        text = utf8_text(piece)
        raw = text.tobytes()
        if _SEAT_ZERO not in raw:
            return text
        return np.frombuffer(seats_from_one(raw), dtype=np.uint8)

    @classmethod
    def amend(cls, record: Record) -> Record:
        """Take the uncalled bet out of the collections and the total pot of every hand read.

        Winamax writes no uncalled bet: the bettor's collection holds it, and the total pot, which
        is written net of the rake, too.  Where the collections and the rake make every chip put
        in, the uncalled part included, and its owner collected it, it is taken back out of that
        collection; the total pot becomes the chips put in (the written one, with the rake, less
        the uncalled bet), and ``No rake`` a rake of 0.  A hand whose record does not add up so is
        left as written, for the audit to name.
        """
        chips = replay(record)
        dealt = record.dealt
        rake = np.where(np.isnan(record.rake) & ~np.isnan(record.pot), 0.0, record.rake)
        got = np.where(dealt, np.nan_to_num(record.received), 0.0)
        back = chips.returned.sum(axis=1)
        near = tolerance(np.where(dealt, record.stack, 0.0))
        holds = ((record.problem == None) & (back > near)  # noqa: E711 (elementwise)
                 & (np.abs(got.sum(axis=1) + np.nan_to_num(rake) - chips.pot - back) <= near)
                 & (got >= chips.returned - near[:, None]).all(axis=1))
        record.received[holds] -= chips.returned[holds]
        record.pot = np.where(holds, record.pot + rake - back, record.pot + rake)
        record.rake = rake
        return record


_SEAT_ZERO = b"\nSeat 0: "
_POSTS, _SUMMARY = b"\n*** ANTE/BLINDS ***", b"\n*** SUMMARY ***"
_HAND_START = re.compile(rb"^Winamax Poker - ", re.MULTILINE)
_SEAT = re.compile(rb"^(Seat |Table: '.*' [0-9]+-max .*Seat #)([0-9]+)(?=: | is the button$)", re.MULTILINE)


def utf8_text(piece: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """A chunk's bytes as UTF-8: as they are, or, where every byte beyond ASCII breaks UTF-8 (a log
    of Winamax's older client, in Windows-1252: ``0.50\\x80``), decoded from Windows-1252.  A
    chunk of both, or not Windows-1252 either, is left for the reading to reject its lines.

    >>> bytes(utf8_text(np.frombuffer(b"0.50\\x80/1\\x80", np.uint8))).decode()
    '0.50€/1€'
    >>> bytes(utf8_text(np.frombuffer("0.50€".encode(), np.uint8))).decode()
    '0.50€'
    """
    if is_utf8(piece) or (utf8_faults(piece) != (piece >= 0x80)).any():
        return piece
    try:
        return np.frombuffer(piece.tobytes().decode("cp1252").encode("utf-8"), dtype=np.uint8)
    except UnicodeDecodeError:
        return piece


def _next_seat(seat: re.Match[bytes]) -> bytes:
    """A seat number's text one more."""
    return seat[1] + str(int(seat[2]) + 1).encode()


def seats_from_one(text: bytes) -> bytes:
    """The hands of ``text`` whose table numbers its seats from 0 (``Seat 0: mrotsim``, ``Seat #0
    is the button``) with every seat number one more, as the engine numbers seats from 1; the other
    hands as they are.  Only the table's line, the seats before the posts and the summary's are
    renumbered (an action's line may start with a name like ``Seat 0: x``); only the hands that
    write a ``Seat 0`` are looked at, each once.

    >>> hand = b"Winamax Poker - ...\\nTable: 'T' 5-max (real money) Seat #0 is the button\\nSeat 0: x (1)\\n"
    >>> body = b"*** ANTE/BLINDS ***\\nSeat 4: a folds\\n*** SUMMARY ***\\nSeat 0: x won 3\\n"
    >>> print(seats_from_one(hand + body + b"Winamax Poker - ...\\nSeat 0: z (1)").decode())
    Winamax Poker - ...
    Table: 'T' 5-max (real money) Seat #1 is the button
    Seat 1: x (1)
    *** ANTE/BLINDS ***
    Seat 4: a folds
    *** SUMMARY ***
    Seat 1: x won 3
    Winamax Poker - ...
    Seat 0: z (1)
    """
    starts = np.array([0] + [found.start() for found in _HAND_START.finditer(text)] + [len(text)])
    zeros = np.array([found.start() for found in re.finditer(re.escape(_SEAT_ZERO), text)])
    hands = np.unique(np.searchsorted(starts, zeros, side="right") - 1)
    parts, at = [], 0
    for begin, end in zip(starts[hands].tolist(), starts[hands + 1].tolist()):
        hand = text[begin:end]
        posts, summary = hand.find(_POSTS), hand.rfind(_SUMMARY)
        if posts < 0 or summary < posts or _SEAT_ZERO not in hand[:posts]:
            continue
        parts += [text[at:begin], _SEAT.sub(_next_seat, hand[:posts]), hand[posts:summary],
                  _SEAT.sub(_next_seat, hand[summary:])]
        at = end
    return b"".join([*parts, text[at:]])


#: This site, as :mod:`pipeline.formats.sites` finds it.
SITE = site_of(Winamax)
