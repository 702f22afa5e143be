"""GGPoker hand histories (PokerCraft's text logs): the site's grammar.

Layer: formats and I/O (:mod:`pipeline.formats`); imports the site-log engine
(:mod:`pipeline.formats.logs`) and the hands' model, nothing else.

This module owns what GGPoker's lines say (:class:`GGPoker`): a hand opens with
``Poker Hand #HD23847510: Hold'em No Limit ($0.5/$1) - 2017/11/12 11:43:27`` (Rush & Cash
tables too; the site writes no time zone, so the hand's ``time`` is null and its text is kept;
the samples hold no tournament, whose header is then a line not understood);
opponents are anonymised (``79adcegg``) and their cards appear only when they show; posts are
blinds, a straddle (``straddle $2``), a missed blind (``posts missed blind``: dead money) and
antes; an all-in's insurance, the EV Cashout, is the site's money: ``Pays Cashout Risk ($X)``
the player paid it, ``Receives Cashout ($X)`` it paid the player; the summary's ``Total pot |
Rake | Jackpot | Bingo | Fortune | Tax``: what the site took is the rake and every fee after it; a
board run two or three times (``Hand was run two times``) is set apart.  Short deck is not read:
GGPoker does not say which ranking of three of a kind and a straight it plays.
"""

from __future__ import annotations

from pipeline.formats.logs.grammar import Amount, Grammar, Kind
from pipeline.formats.logs.lines import Rule
from pipeline.formats.logs.reader import site_of
from pipeline.formats.logs.values import AMOUNT
from pipeline.hands.model import Action

_POSITIONS = r"(?: \((?:button|small blind|big blind)\))*"
_FEES = "".join(rf"(?: \| {word} (?P<fee_{word.lower()}>{AMOUNT}))?"
                for word in ("Jackpot", "Bingo", "Fortune", "Tax"))


class GGPoker(Grammar):
    """GGPoker's lines, verbs and games."""

    name = "ggpoker"
    venue = "GGPoker"
    hand_start = r"Poker Hand #[A-Z]*[0-9]+: "
    rules = (
        Rule(Kind.FIELDS, rf"Poker Hand #(?P<hand_id>[A-Z]*[0-9]+): (?P<game>[^(]+?) +"
                          rf"\((?P<small>{AMOUNT})/(?P<big>{AMOUNT})\) - "
                          r"(?P<time>[0-9]{4}/[0-9]{2}/[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2})"
                          r"(?: (?P<zone>[A-Z]+))?",
             prefix="Poker Hand #"),
        Rule(Kind.FIELDS, r"Table '(?P<table>.*)' (?P<max_seats>[0-9]+)-max "
                          r"Seat #(?P<button>[0-9]+) is the button", prefix="Table '"),
        Rule(Kind.SEAT, rf"Seat (?P<seat>[0-9]+): (?P<name>.+) \((?P<stack>{AMOUNT}) in chips[^()]*\)"
                        r"(?P<out> is sitting out| out of hand)?", prefix="Seat ", where="body"),
        Rule(Kind.SUMMARY, r"\*\*\* SUMMARY \*\*\*", prefix="*** "),
        Rule(Kind.STREET, r"\*\*\* (?:(?:FIRST|SECOND|THIRD) )?(?P<street>FLOP|TURN|RIVER) \*\*\*"
                          r"(?: \[[^\]]*\])? \[(?P<cards>[^\]]*)\]", prefix="*** "),
        Rule(Kind.IGNORE, r"\*\*\* (?:(?:FIRST|SECOND|THIRD) )?(?:HOLE CARDS|SHOWDOWN|SHOW DOWN) \*\*\*",
             prefix="*** "),
        Rule(Kind.DEALT, r"Dealt to (?P<name>.+) \[(?P<cards>[^\]]*)\]", prefix="Dealt to ", where="body"),
        # An opponent dealt cards not shown: a seated player all the same.
        Rule(Kind.DEALT, r"Dealt to (?P<name>.+)", prefix="Dealt to ", where="body"),
        Rule(Kind.UNCALLED, rf"Uncalled bet \((?P<amount>{AMOUNT})\) returned to (?P<name>.+)",
             prefix="Uncalled bet (", where="body"),
        Rule(Kind.ACTION, rf"(?P<name>.+): (?P<verb>raises) {AMOUNT} to (?P<amount>{AMOUNT})"
                          r"(?P<all_in> and is all-in)?", contains=": raises ", where="body"),
        Rule(Kind.ACTION, rf"(?P<name>.+): (?P<verb>posts small blind|posts big blind|posts missed blind"
                          r"|posts ante|posts the ante|posts straddle|straddle|calls|bets) "
                          rf"(?P<amount>{AMOUNT})"
                          r"(?P<all_in> and is all-in)?", contains=": ", where="body"),
        Rule(Kind.ACTION, r"(?P<name>.+): (?P<verb>folds|checks)", contains=": ", where="body"),
        Rule(Kind.SHOW, r"(?P<name>.+): shows \[(?P<cards>[^\]]*)\](?: \(.*\))?", contains=": shows [",
             where="body"),
        Rule(Kind.MUCK, r"(?P<name>.+): mucks hand(?: \[(?P<cards>[^\]]*)\])?", contains=": mucks hand",
             where="body"),
        Rule(Kind.CASHOUT_PAID, rf"(?P<name>.+): Pays Cashout Risk \((?P<amount>{AMOUNT})\)",
             contains=": Pays Cashout Risk (", where="body"),
        Rule(Kind.CASHOUT, rf"(?P<name>.+): Receives Cashout \((?P<amount>{AMOUNT})\)",
             contains=": Receives Cashout (", where="body"),
        Rule(Kind.IGNORE, r".+: (?:Chooses to EV Cashout|doesn't show hand)", contains=": ", where="body"),
        Rule(Kind.COLLECT, rf"(?P<name>.+) collected (?P<amount>{AMOUNT}) from "
                           r"(?P<pot>pot|main pot|side pot(?:-[0-9]+)?)", contains=" collected ",
             where="body"),
        Rule(Kind.TOTAL, rf"Total pot (?P<pot>{AMOUNT}) \| Rake (?P<rake>{AMOUNT}){_FEES}",
             prefix="Total pot ", where="summary"),
        Rule(Kind.TWICE, r"Hand was run (?:two|three|[0-9]+) times", prefix="Hand was run ", where="summary"),
        Rule(Kind.BOARD, r"Board \[(?P<cards>[^\]]*)\]", prefix="Board [", where="summary"),
        Rule(Kind.IGNORE, r"(?:FIRST|SECOND|THIRD) Board \[[^\]]*\]", where="summary"),
        Rule(Kind.SHOWED, rf"Seat [0-9]+: (?P<name>.+?){_POSITIONS} showed \[(?P<cards>[^\]]*)\].*",
             prefix="Seat ", where="summary"),
        Rule(Kind.MUCKED, rf"Seat [0-9]+: (?P<name>.+?){_POSITIONS} mucked \[(?P<cards>[^\]]*)\].*",
             prefix="Seat ", where="summary"),
        Rule(Kind.IGNORE, r"Seat [0-9]+: .*", prefix="Seat ", where="summary"),
    )
    verbs = {
        "posts small blind": (Action.POST_SMALL_BLIND, Amount.TO),
        "posts big blind": (Action.POST_BIG_BLIND, Amount.TO),
        "posts missed blind": (Action.POST_DEAD, Amount.TO),
        "posts ante": (Action.POST_ANTE, Amount.TO), "posts the ante": (Action.POST_ANTE, Amount.TO),
        "posts straddle": (Action.POST_STRADDLE, Amount.TO), "straddle": (Action.POST_STRADDLE, Amount.TO),
        "folds": (Action.FOLD, Amount.NONE), "checks": (Action.CHECK, Amount.NONE),
        "calls": (Action.CALL, Amount.ADDS), "bets": (Action.BET, Amount.TO),
        "raises": (Action.RAISE, Amount.TO),
    }
    games = {"hold'em": ("holdem", 2), "omaha": ("omaha", 4), "omaha hi/lo": ("omaha-hilo", 4),
             "5 card omaha": ("omaha", 5), "6 card omaha": ("omaha", 6)}

    @classmethod
    def game_of(cls, text: str) -> tuple[str, int, str | None] | None:
        """The game of a header's text; GGPoker also writes its pot-limit Omaha tables ``PLO``, ``PLO5``
        and ``PLO6``.

        >>> GGPoker.game_of("PLO5"), GGPoker.game_of("Hold'em No Limit"), GGPoker.game_of("ShortDeck")
        (('omaha', 5, 'pot-limit'), ('holdem', 2, 'no-limit'), None)
        """
        short = {"plo": 4, "plo5": 5, "plo6": 6}.get(text.strip().lower())
        if short:
            return "omaha", short, "pot-limit"
        return super().game_of(text)


#: This site, as :mod:`pipeline.formats.sites` finds it.
SITE = site_of(GGPoker)
