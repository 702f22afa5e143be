"""Winning Poker Network (Americas Cardroom) hand histories, the older layout: the site's grammar.

Layer: formats and I/O (:mod:`pipeline.formats`); imports the site-log engine
(:mod:`pipeline.formats.logs`) and the hands' model, nothing else.

This module owns what the network's older logs say (:class:`WinningPoker`; the current layout is
:mod:`~pipeline.formats.sites.winningpoker_v2`): a hand opens with ``Game started at: 2014/3/10
17:5:22`` (no zone: the hand's ``time`` is null), then ``Game ID: 262002768 0.25/0.50 Maghemite
(Fast) (Hold'em)``: the id, the stakes, the table (its tags ``(JP)``, ``CAP``, ``(Short)``… part of
its name) and the game, ``Hold'em`` or ``Omaha``, its betting never written (so never said here).
No amount carries a currency.  Every line of a player starts ``Player <name>``, every amount is in
brackets and is the chips the action adds (``raises (20)`` after a big blind of 4 makes 24), an
all-in says only ``allin (124)``, what the chips make of it (a call, a bet, a raise) being the
replay's; a dead post is ``posts (0.25) as a dead bet``.  Sitting out is a line of its own
(``Player X sitting out``, ``wait BB``), and a seat may appear on no line after its seat line: a
player is dealt in when an action or a collection names him.  The hero's cards come a card a
line (``received card: [6d]``), the others' ``received a card.``; a ten is ``10`` (``[9c 10d
8d]``).  Nobody shows in the body: the summary's line per player (``*Player X shows: One pair of
Js [Jd Js]. Bets: 4.07. Collects: 7.73. Wins: 3.66.``) says what each showed, mucked and collected;
``Pot: 7.73. Rake 0.41`` is net of the rake (``. JP fee 0.04`` from 2016 on), and the 2014 hands of
jackpot tables took a further 0.25 that no line writes.  Every whole hand ends ``Game ended
at:``; ``Pot: 0. Rake 0`` is a hand cancelled before the deal.
"""

from __future__ import annotations

from pipeline.formats.logs.grammar import Amount, Grammar, Kind
from pipeline.formats.logs.lines import Rule
from pipeline.formats.logs.reader import site_of
from pipeline.formats.logs.values import AMOUNT
from pipeline.hands.model import Action

_ZERO = r"0(?:[.,]0+)?"


def _bets(collects: str) -> str:
    """The tail of a player's summary line: what he put in, collected (``collects``), won or lost."""
    return rf"Bets: {AMOUNT}\. Collects: {collects}\. (?:Wins|Loses): {AMOUNT}\."


_SHOWS = r"shows: [^\[]*\[(?P<cards>[^\]]*)\](?: Low hand \([^)]*\))?\. ?"
_HIDES = r"(?:mucks \(does not show(?:: \[[^\]]*\]| cards)\)\. |does not show cards\.)"


class WinningPoker(Grammar):
    """The Winning Poker Network's older lines, verbs and games."""

    name = "winningpoker"
    venue = "Winning Poker Network"
    hand_start = r"Game started at: "
    # The hand's last line stands for its summary's: it is what a whole hand always holds (the
    # summary's first line a hand cut short keeps too), and no rule needs to know where the summary
    # starts, its lines being unlike the body's.  The commonest lines come first: each rule is tried
    # on the lines no rule before it took.
    rules = (
        Rule(Kind.SUMMARY, r"Game ended at: .*", prefix="Game ended at: "),
        Rule(Kind.IGNORE, r"Player .* received (?:a )?card\.", prefix="Player ", contains=" card."),
        # The summary's line per player: those who collect nothing first.
        Rule(Kind.IGNORE, r"\*?Player .* does not show cards\." + _bets(_ZERO),
             contains=" does not show cards.Bets: "),
        Rule(Kind.SHOWED, r"\*?Player (?P<name>.+) " + _SHOWS + _bets(_ZERO), contains=" shows: "),
        Rule(Kind.MUCKED, r"\*?Player (?P<name>.+) mucks \(does not show(?:: \[(?P<cards>[^\]]*)\]| cards)\)"
                          r"\. " + _bets(_ZERO), contains=" mucks (does not show"),
        # A winner who shows: the line is also the only record of his cards.
        Rule(Kind.COLLECT, rf"\*?Player (?P<name>.+) (?:{_SHOWS}|{_HIDES})"
                           + _bets(f"(?P<amount>{AMOUNT})"), contains=". Collects: "),
        Rule(Kind.ACTION, r"Player (?P<name>.+) (?P<verb>has small blind|has big blind|posts|straddle|calls"
                          rf"|bets|raises|(?P<all_in>allin)) \((?P<amount>{AMOUNT})\)", prefix="Player "),
        Rule(Kind.ACTION, r"Player (?P<name>.+) (?P<verb>folds|checks)", prefix="Player "),
        # Every seat is out of the hand unless an action or a collection names its player: sitting
        # out is written on lines of its own, and a seat may be on no other line at all.
        Rule(Kind.SEAT, rf"Seat (?P<seat>[0-9]+): (?P<name>.+) \((?P<stack>{AMOUNT})\)(?P<out>\.)",
             prefix="Seat "),
        # "mucks cards" is written by the uncontested winner too: the summary says who mucked.
        Rule(Kind.IGNORE, r"Player .* (?:mucks cards|sitting out|wait BB|is timed out\.)", prefix="Player "),
        Rule(Kind.STREET, r"\*\*\* (?P<street>FLOP|TURN|RIVER) \*\*\*: (?:\[[^\]]*\] )?\[(?P<cards>[^\]]*)\]",
             prefix="*** "),
        Rule(Kind.FIELDS, r"Game started at: (?P<time>[0-9]{4}/[0-9]{1,2}/[0-9]{1,2} "
                          r"[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2})", prefix="Game started at: "),
        Rule(Kind.FIELDS, rf"Game ID: (?P<hand_id>[0-9]+) (?P<small>{AMOUNT})/(?P<big>{AMOUNT}) "
                          r"(?P<table>.+?) *\((?P<game>[^()]+)\)", prefix="Game ID: "),
        Rule(Kind.FIELDS, r"Seat (?P<button>[0-9]+) is the button", prefix="Seat "),
        Rule(Kind.IGNORE, r"------ Summary ------", prefix="------ "),
        Rule(Kind.CANCELLED, rf"Pot: {_ZERO}\. Rake {_ZERO}(?:\. JP fee {_ZERO})?", prefix="Pot: "),
        # The pot written is what the winners collected: net of the rake.
        Rule(Kind.TOTAL, rf"Pot: {AMOUNT}\. Rake (?P<rake>{AMOUNT})(?:\. JP fee (?P<fee_jackpot>{AMOUNT}))?",
             prefix="Pot: "),
        Rule(Kind.UNCALLED, rf"Uncalled bet \((?P<amount>{AMOUNT})\) returned to (?P<name>.+)",
             prefix="Uncalled bet ("),
        Rule(Kind.BOARD, r"Board: \[(?P<cards>[^\]]*)\]", prefix="Board: ["),
        Rule(Kind.DEALT, r"Player (?P<name>.+) received (?:a )?card: \[(?P<cards>[^\]]*)\]", prefix="Player ",
             contains=" card: ["),
        Rule(Kind.ACTION, rf"Player (?P<name>.+) posts \((?P<amount>{AMOUNT})\) (?P<verb>as a dead bet)",
             prefix="Player ", contains=" as a dead bet"),
    )
    verbs = {
        "has small blind": (Action.POST_SMALL_BLIND, Amount.ADDS),
        "has big blind": (Action.POST_BIG_BLIND, Amount.ADDS),
        "posts": (Action.POST, Amount.ADDS), "as a dead bet": (Action.POST_DEAD, Amount.ADDS),
        "straddle": (Action.POST_STRADDLE, Amount.ADDS),
        "folds": (Action.FOLD, Amount.NONE), "checks": (Action.CHECK, Amount.NONE),
        "calls": (Action.CALL, Amount.ADDS), "bets": (Action.BET, Amount.ADDS),
        "raises": (Action.RAISE, Amount.ADDS),
        # The chips it adds set the player's total; the replay names it a bet or a raise.
        "allin": (Action.RAISE, Amount.ADDS),
    }
    games = {"hold'em": ("holdem", 2), "omaha": ("omaha", 4), "omaha hilow": ("omaha-hilo", 4)}
    time_formats = ("%Y/%m/%d %H:%M:%S",)


#: This site, as :mod:`pipeline.formats.sites` finds it.
SITE = site_of(WinningPoker)
