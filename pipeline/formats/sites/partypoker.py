"""PartyPoker hand histories: the site's grammar.

Layer: formats and I/O (:mod:`pipeline.formats`); imports the site-log engine
(:mod:`pipeline.formats.logs`), the hands' model and replay, and the foundation modules.

This module owns what PartyPoker's lines say (:class:`PartyPoker`): a hand opens with
``***** Hand History for Game 13551258247 *****`` (no site name between the stars and ``Hand``,
which 888poker's ``***** 888poker Hand History ...`` has), maybe after ``#Game No : N`` or
``Game #N starts.`` lines; then a header of four layouts:
``$0.05/$0.10 USD NL Texas Hold'em - Monday, January 06, 13:09:04 EST 2014`` (the blinds),
``$0.05/$0.10 USD FL ...`` (a limit table's small and big *bets*: the big blind is the first, the
small blind less than half of it and written nowhere but its post), ``$50 USD PL Omaha ...`` (the
table's buy-in cap: no blinds) and a tournament's ``NL Texas Hold'em $22 USD Buy-in
Trny:125049467 Level:12  Blinds-Antes(1.200/2.400 -400) - ...`` (its blinds with a dot between
thousands, which an amount's reading takes for a decimal point: not read; the posts say them).
The zone sits between the time and the year; the weekday is often wrong and is not checked.

Every bracketed amount is what the action adds (``raises [$0.70 USD]`` after a big blind of 0.10 is
to 0.80; ``is all-In  [$4.90 USD]`` is the player's last chips: a bet, a raise or a call);
``posts big blind + dead [$3]`` is the small blind dead and the big blind live; a small blind
posted after the hand's own is live.  The seat list holds every seated player, those sitting out
too (a line ``X is sitting out`` only sometimes): a seat is dealt in when its player acts.  No
summary, total pot, rake or uncalled bet is written: a hand is whole when it says who ``wins``,
and what a player wins holds the uncalled part of its bet, or is a ``side pot`` that only its
owner put in (:meth:`PartyPoker.amend` takes it out).  Stud and draw games are not read.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pyarrow.compute as pc

from pipeline.arrays import as_mask, running_max
from pipeline.formats.logs.grammar import POST_BOTH, Amount, Grammar, Kind
from pipeline.formats.logs.lines import Rule
from pipeline.formats.logs.reader import site_of
from pipeline.formats.logs.values import AMOUNT
from pipeline.hands.model import Action
from pipeline.hands.record import CODE, Record
from pipeline.hands.replay import replay, tolerance

#: An amount as PartyPoker writes it: ``$0.05 USD``, ``$1,000 USD``, ``$1352.91``, ``126,043``.
_AMT = rf"{AMOUNT}(?: [A-Z]{{3}})?"
_TIME = (r"(?P<time>[A-Z][a-z]+, [A-Z][a-z]+ [0-9]{1,2}, [0-9]{2}:[0-9]{2}:[0-9]{2} (?P<zone>[A-Z]{2,5}) "
         r"[0-9]{4})")
_GAME = r"(?P<game>(?:NL|PL|FL) [A-Z][A-Za-z' -]*?)"
#: The pot a collection names, and the hand it wins with.
_POT = r"(?P<pot>main pot|side pot [0-9]+)(?: with .*)?"


class PartyPoker(Grammar):
    """PartyPoker's lines, verbs and games."""

    name = "partypoker"
    venue = "PartyPoker"
    hand_start = r"\*{5} Hand History for Game [0-9]+ \*{5}"
    # The most frequent lines first: each rule is tried on the lines none before it took.
    rules = (
        Rule(Kind.FIELDS, r"\*{5} Hand History for Game (?P<hand_id>[0-9]+) \*{5}",
             prefix="***** Hand History for Game "),
        # Every seat is "out" unless its player acts: the list seats those sitting out, mostly unsaid.
        Rule(Kind.SEAT, rf"Seat (?P<seat>[0-9]+): (?P<name>.+) \( (?P<stack>{_AMT}) (?P<out>\))",
             prefix="Seat "),
        Rule(Kind.ACTION, r"(?P<name>.+) (?P<verb>folds)", contains=" folds"),
        Rule(Kind.ACTION, r"(?P<name>.+) (?P<verb>calls|bets|raises|posts (?:small blind|big blind \+ dead"
                          rf"|big blind|ante)|(?P<all_in>is all-In)) +\[(?P<amount>{_AMT})\]\.?",
             contains=" ["),
        Rule(Kind.ACTION, r"(?P<name>.+) (?P<verb>checks)", contains=" checks"),
        Rule(Kind.STREET, r"\*\* Dealing (?P<street>Flop|Turn|River) \*\* \[ (?P<cards>[^\]]+) \]",
             prefix="** Dealing "),
        Rule(Kind.IGNORE, r"\*\* Dealing down cards \*\*", prefix="** Dealing down cards"),
        Rule(Kind.COLLECT, rf"(?P<name>.+) wins (?P<amount>{_AMT}) from the {_POT}", contains=" wins "),
        Rule(Kind.COLLECT, rf"(?P<name>.+) wins Lo \((?P<amount>{_AMT})\) from the {_POT}",
             contains=" wins Lo ("),
        Rule(Kind.COLLECT, r"(?P<name>.+) wins (?P<amount>[0-9][0-9.,]*) chips", contains=" wins "),
        Rule(Kind.COLLECT, rf"(?P<name>.+) wins (?P<amount>{_AMT})", contains=" wins "),
        Rule(Kind.IGNORE, r".+ does not show cards\.", contains=" does not show cards."),
        Rule(Kind.SHOW, r"(?P<name>.+) shows \[ (?P<cards>[^\]]+) \].*", contains=" shows [ "),
        Rule(Kind.MUCK, r"(?P<name>.+) doesn't show \[ (?P<cards>[^\]]+) \].*", contains=" doesn't show [ "),
        # A limit table's stakes are its bets: the first is the big blind.
        Rule(Kind.FIELDS, rf"(?P<stakes>(?P<big>{AMOUNT})/{AMOUNT}) (?P<currency>[A-Z]{{3}}) "
                          rf"(?P<game>FL [A-Z][A-Za-z' -]*?) - {_TIME}", contains=" FL "),
        Rule(Kind.FIELDS, rf"(?P<stakes>(?P<small>{AMOUNT})/(?P<big>{AMOUNT})) (?P<currency>[A-Z]{{3}}) "
                          rf"{_GAME} - {_TIME}", contains="/"),
        # One amount is the table's buy-in cap, not its blinds.
        Rule(Kind.FIELDS, rf"(?P<stakes>{AMOUNT}) (?P<currency>[A-Z]{{3}}) {_GAME} - {_TIME}",
             contains=" - "),
        Rule(Kind.FIELDS, rf"{_GAME} (?P<buy_in>{_AMT}) Buy-in Trny:(?P<tournament_id>[0-9]+) "
                          r"Level:(?P<level>[0-9]+) +Blinds-Antes\((?P<stakes>[0-9.,]+/[0-9.,]+) "
                          rf"-[0-9.,]+\) - {_TIME}", contains=" Buy-in Trny:"),
        Rule(Kind.FIELDS, r"Table (?P<table>.+?)(?: \(No DP\))? \((?:Real|Play) Money\)", prefix="Table "),
        Rule(Kind.FIELDS, r"Seat (?P<button>[0-9]+) is the button", prefix="Seat "),
        Rule(Kind.FIELDS, r"Total number of players : [0-9]+/(?P<max_seats>[0-9]+)",
             prefix="Total number of players : "),
        Rule(Kind.FIELDS, r"Trny:(?P<tournament_id>[0-9]+) Level:(?P<level>[0-9]+)", prefix="Trny:"),
        Rule(Kind.IGNORE, r"Blinds-Antes\([0-9.,]+/[0-9.,]+ -[0-9.,]+\)", prefix="Blinds-Antes("),
        Rule(Kind.DEALT, r"Dealt to (?P<name>.+) \[ +(?P<cards>[^\]]*?) \]", prefix="Dealt to "),
        Rule(Kind.IGNORE, r".+ shows[0-9A-Z,]+ +for low\.", contains=" for low."),
        # What says nothing of the chips: the table's comings and goings, the clock, the next hand.
        Rule(Kind.IGNORE, r".+ (?:has (?:joined|left) the table\.|is sitting out|did not respond in time"
                          r"|will be using (?:his|her|their) time bank for this hand\.)"
                          r"|Your time bank will be activated in [0-9]+ secs?\. If you do not want it to be "
                          r"used, please act now\.|Game #[0-9]+ starts\.|#Game No : [0-9]+"),
        # Chat, last: a seated name may hold ": " too, and its actions are read first.
        Rule(Kind.IGNORE, r".+: .*", contains=": "),
    )
    verbs = {
        "posts small blind": (Action.POST_SMALL_BLIND, Amount.TO),
        "posts big blind": (Action.POST_BIG_BLIND, Amount.TO),
        "posts big blind + dead": (POST_BOTH, Amount.TO),
        "posts ante": (Action.POST_ANTE, Amount.TO),
        "folds": (Action.FOLD, Amount.NONE), "checks": (Action.CHECK, Amount.NONE),
        "calls": (Action.CALL, Amount.ADDS), "bets": (Action.BET, Amount.ADDS),
        "raises": (Action.RAISE, Amount.ADDS),
        # A bet, a raise or a call for less: the replay names it from the chips.
        "is all-in": (Action.RAISE, Amount.ADDS),
    }
    games = {"texas hold'em": ("holdem", 2), "omaha": ("omaha", 4), "omaha hi-lo": ("omaha-hilo", 4)}
    betting = (("nl", "no-limit"), ("pl", "pot-limit"), ("fl", "fixed-limit"))
    time_formats = ("%A, %B %d, %H:%M:%S %Z %Y",)
    main_pots = ("main pot",)
    ends_with = Kind.COLLECT
    # What a file may open with before its first hand: the hand's number, or the next hand's.
    head_lines = r"#Game No : [0-9]+ *|Game #[0-9]+ starts\."

    @classmethod
    def amend(cls, record: Record) -> Record:
        """The Record as PartyPoker's chips say it: a small blind posted after the hand's own is
        live (its poster then calls the rest: ``posts small blind [$0.05 USD]``, ``calls [$0.05
        USD]`` to a big blind of 0.10); an all-in that does not raise is a call; and what a player
        received is what it wins less the uncalled part of its bet, which the site counts among
        the winnings.  A player who wins less than the replay returns it keeps what it wins: the
        audit then says the record does not add up."""
        action = record.action.copy()
        if record.text is not None:
            late = np.flatnonzero(action == CODE[Action.POST_DEAD])
            small = as_mask(pc.match_substring(record.text.take(late), " posts small blind ["))
            action[late[small]] = CODE[Action.POST]
        record = replace(record, action=action)
        chips = replay(record)
        near = tolerance(np.where(record.dealt, record.stack, 0.0))
        # The street's level before each action: the largest total set before it on the street.
        street = record.action_hand * 4 + record.street
        level = running_max(np.where(np.isfinite(chips.to), chips.to, 0.0), street)
        before = np.zeros(len(level))
        same = np.flatnonzero(street[1:] == street[:-1]) + 1
        before[same] = level[same - 1]
        calling = (record.all_in & (action == CODE[Action.RAISE]) & (before > 0)
                   & (chips.to <= before + near[record.action_hand]))
        action[calling] = CODE[Action.CALL]
        back = record.dealt & (chips.returned > 0) & (record.received >= chips.returned - near[:, None])
        # Amounts are decimal: the difference is rounded back to far below a cent.
        received = np.where(back, np.round(record.received - chips.returned, 9), record.received)
        return replace(record, action=action, to=np.where(calling, np.nan, record.to), received=received)


#: This site, as :mod:`pipeline.formats.sites` finds it.
SITE = site_of(PartyPoker)
