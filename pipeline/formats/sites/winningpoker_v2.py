"""Winning Poker Network (Americas Cardroom) hand histories, the current layout: the site's grammar.

Layer: formats and I/O (:mod:`pipeline.formats`); imports the site-log engine
(:mod:`pipeline.formats.logs`) and the hands' model, nothing else.

This module owns what the network's logs have said since 2019 (:class:`WinningPokerV2`; the older
layout is :mod:`~pipeline.formats.sites.winningpoker`): a hand opens with ``Hand #61150000 -
Holdem(No Limit) - $0.01/$0.02 - 2019/09/10 12:02:11 UTC`` (a tournament's with ``Game Hand #…
- Tournament #… - … - Level 15 (250.00/500.00)- …``), then ``Joppa 6-max Seat #3 is the button``,
the table's name bare.  A raise is written ``raises $0.25 to $0.26`` (its total last), a call or a
bet by the chips it adds; ``posts dead $0.03`` is both blinds, the small one dead.  A player
sitting out is marked on the seat line (``($0.00) is sitting out``) or on a line of his own
(``!? sits out``, ``waits for big blind``): a player is dealt in when an action or a collection
names him.  After every street the pots so far are written (``Main pot $17.50 | Rake $0.50``,
``Side pot(1) …``), read by nobody.  A winner's ``collected $X from main pot`` comes only after a
showdown, the summary's ``won $X`` always: the summary's is read, each winner's total of every
pot.  The summary's ``Total pot $4.75 | Rake $0.21 | JP Fee $0.04`` is net of what the site took
(the rake and the jackpot fee), and writes no rake where none was taken.
"""

from __future__ import annotations

from pipeline.formats.logs.grammar import POST_BOTH, Amount, Grammar, Kind
from pipeline.formats.logs.lines import Rule
from pipeline.formats.logs.reader import site_of
from pipeline.formats.logs.values import AMOUNT
from pipeline.hands.model import Action

_POSITIONS = r"(?: \((?:button|small blind|big blind)\))*"
_TIME = r"(?P<time>[0-9]{4}/[0-9]{2}/[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}) (?P<zone>[A-Z]+)"
_GAME = r"(?P<game>[^()]+\([^()]+\))"


class WinningPokerV2(Grammar):
    """The Winning Poker Network's current lines, verbs and games."""

    name = "winningpoker-v2"
    venue = "Winning Poker Network"
    hand_start = r"(?:Game )?Hand #[0-9]+ - "
    # The commonest lines come first: each rule is tried on the lines no rule before it took.
    rules = (
        Rule(Kind.SUMMARY, r"\*\*\* SUMMARY \*\*\*", prefix="*** "),
        # Every seat is out of the hand unless an action or a collection names its player: the
        # seat line does not say all who sit out.
        Rule(Kind.SEAT, rf"Seat (?P<seat>[0-9]+): (?P<name>.+) \((?P<stack>{AMOUNT})(?P<out>\))"
                        r"(?: is sitting out)?", prefix="Seat ", where="body"),
        Rule(Kind.IGNORE, r"Seat [0-9]+: .+ folded on the (?:Pre-Flop|Flop|Turn|River)(?: and did not bet)?",
             prefix="Seat ", where="summary"),
        Rule(Kind.COLLECT, rf"Seat [0-9]+: (?P<name>.+?){_POSITIONS} (?:did not show|showed \[[^\]]*\]) and "
                           rf"(?:won|collected) (?P<amount>{AMOUNT})(?: with .*)?", prefix="Seat ",
             where="summary"),
        Rule(Kind.SHOWED, rf"Seat [0-9]+: (?P<name>.+?){_POSITIONS} showed \[(?P<cards>[^\]]*)\] and lost"
                          r"(?: with .*)?", prefix="Seat ", where="summary"),
        Rule(Kind.MUCKED, rf"Seat [0-9]+: (?P<name>.+?){_POSITIONS} mucked \[(?P<cards>[^\]]*)\].*",
             prefix="Seat ", where="summary"),
        # Before the actions: a player may be named "x calls $2".
        Rule(Kind.UNCALLED, rf"Uncalled bet \((?P<amount>{AMOUNT})\) returned to (?P<name>.+)",
             prefix="Uncalled bet (", where="body"),
        Rule(Kind.DEALT, r"Dealt to (?P<name>.+) \[(?P<cards>[^\]]*)\]", prefix="Dealt to ", where="body"),
        Rule(Kind.ACTION, r"(?P<name>.+) (?P<verb>folds)", contains=" folds", where="body"),
        Rule(Kind.ACTION, r"(?P<name>.+) (?P<verb>checks)", contains=" checks", where="body"),
        Rule(Kind.ACTION, rf"(?P<name>.+) (?P<verb>calls) (?P<amount>{AMOUNT})(?P<all_in> and is all-in)?",
             contains=" calls ", where="body"),
        Rule(Kind.ACTION, r"(?P<name>.+) (?P<verb>posts the small blind|posts the big blind|posts dead|posts"
                          rf"|posts ante|posts the ante) (?P<amount>{AMOUNT})(?P<all_in> and is all-in)?",
             contains=" posts ", where="body"),
        Rule(Kind.ACTION, rf"(?P<name>.+) (?P<verb>bets) (?P<amount>{AMOUNT})(?P<all_in> and is all-in)?",
             contains=" bets ", where="body"),
        Rule(Kind.ACTION, rf"(?P<name>.+) (?P<verb>raises) {AMOUNT} to (?P<amount>{AMOUNT})"
                          r"(?P<all_in> and is all-in)?", contains=" raises ", where="body"),
        Rule(Kind.IGNORE, rf"Main pot {AMOUNT}(?: \| Rake {AMOUNT})?", prefix="Main pot ", where="body"),
        Rule(Kind.TWICE, r"\*\*\* (?:SECOND (?:FLOP|TURN|RIVER)|(?:FLOP|TURN|RIVER) 2) \*\*\*.*",
             prefix="*** ", where="body"),
        Rule(Kind.STREET, r"\*\*\* (?:FIRST )?(?P<street>FLOP|TURN|RIVER)(?: 1)? \*\*\* (?:\[[^\]]*\] )?"
                          r"\[(?P<cards>[^\]]*)\]", prefix="*** ", where="body"),
        Rule(Kind.IGNORE, r"\*\*\* (?:HOLE CARDS|SHOW DOWN) \*\*\*", prefix="*** ", where="body"),
        Rule(Kind.SHOW, r"(?P<name>.+) shows \[(?P<cards>[^\]]*)\](?: \(.*\))?", contains=" shows [",
             where="body"),
        Rule(Kind.FIELDS, rf"Hand #(?P<hand_id>[0-9]+) - {_GAME} - (?P<small>{AMOUNT})/(?P<big>{AMOUNT}) - "
                          + _TIME, prefix="Hand #"),
        Rule(Kind.FIELDS, r"Game Hand #(?P<hand_id>[0-9]+) - (?:.* GTD )?"
                          rf"Tournament #(?P<tournament_id>[0-9]+) - {_GAME} - Level (?P<level>[0-9IVXLC]+) "
                          rf"\((?P<small>{AMOUNT})/(?P<big>{AMOUNT})\) ?- {_TIME}", prefix="Game Hand #"),
        Rule(Kind.FIELDS, r"(?P<table>.+) (?P<max_seats>[0-9]+)-max Seat #(?P<button>[0-9]+) is the button",
             contains="-max Seat #", where="body"),
        # The total pot is what the winners collected: net of the rake and the jackpot's fee.
        Rule(Kind.TOTAL, rf"Total pot {AMOUNT}(?: \| Rake (?P<rake>{AMOUNT}))?"
                         rf"(?: \| JP Fee (?P<fee_jackpot>{AMOUNT}))?", prefix="Total pot ", where="summary"),
        Rule(Kind.BOARD, r"Board \[(?P<cards>[^\]]*)\]", prefix="Board [", where="summary"),
        Rule(Kind.IGNORE, r".+ (?:does not show|waits for big blind|sits out)", where="body"),
        # The summary's "won" says every collection, these only those of a showdown.
        Rule(Kind.IGNORE, rf".+ collected {AMOUNT} from (?:main pot|side pot-[0-9]+)", contains=" collected ",
             where="body"),
        Rule(Kind.IGNORE, rf"Side pot\([0-9]+\) {AMOUNT}(?: \| Rake {AMOUNT})?", prefix="Side pot(",
             where="body"),
    )
    verbs = {
        "posts the small blind": (Action.POST_SMALL_BLIND, Amount.TO),
        "posts the big blind": (Action.POST_BIG_BLIND, Amount.TO),
        "posts": (Action.POST, Amount.TO), "posts dead": (POST_BOTH, Amount.TO),
        "posts ante": (Action.POST_ANTE, Amount.TO), "posts the ante": (Action.POST_ANTE, Amount.TO),
        "folds": (Action.FOLD, Amount.NONE), "checks": (Action.CHECK, Amount.NONE),
        "calls": (Action.CALL, Amount.ADDS), "bets": (Action.BET, Amount.ADDS),
        "raises": (Action.RAISE, Amount.TO),
    }
    games = {"holdem": ("holdem", 2), "omaha": ("omaha", 4), "omaha h/l": ("omaha-hilo", 4),
             "5card omaha": ("omaha", 5), "5card omaha h/l": ("omaha-hilo", 5)}
    time_formats = ("%Y/%m/%d %H:%M:%S",)


#: This site, as :mod:`pipeline.formats.sites` finds it.
SITE = site_of(WinningPokerV2)
