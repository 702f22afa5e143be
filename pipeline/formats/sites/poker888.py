"""888poker hand histories (the Pacific / Cassava network's text logs): the site's grammar.

Layer: formats and I/O (:mod:`pipeline.formats`); imports the site-log engine
(:mod:`pipeline.formats.logs`), the hands' model and Record, and the foundation modules.

This module owns what 888poker's lines say (:class:`Pacific`): a hand opens with
``***** 888poker Hand History for Game 280009830 *****`` (or another skin of the network:
``Cassava``, ``LuckyAcePoker.com``, ``888.es`` ...), maybe after a ``#Game No : 280009830`` line,
which is read as nothing; then ``$0.50/$1 Blinds No Limit Holdem - *** 06 01 2014 02:31:23`` (day
first, no time zone written: the hand's ``time`` is null and its text is kept), the table
(``Table Caserta 6 Max (Real Money)``, or a tournament's ``Tournament #N <buy-in> - Table #3 ...``),
the button and the seats (``Seat 1: name ( $10 )``, amounts in the player's locale: ``1 192,48 $``).
Every amount is in brackets and is the chips the action adds, a raise's too (``raises [$2.50]``
over a posted $0.50 is a raise to $3: the chips of every sample add up so, and only so).  Nothing
says all in (the replay sees it from the stack), no uncalled bet is written, and there is no total
pot, rake or seat summary: the showdown's ``shows [ .. ]`` and ``mucks [ .. ]`` and the ``collected
[ $x ]`` lines follow ``** Summary **``, a hi-lo pot's halves as two collections.  A hand is whole
when it has a collection.

The file's first line may be ``#Game No : N``, as PartyPoker's is too: the site's files are told by
the first line after it (:attr:`Pacific.head_lines`); PartyPoker's header names no skin
(``***** Hand History for Game N *****``) and is not this site's.

What no rule can say is put right once the engine has read a chunk (:func:`amend`): a dead blind's
two amounts (``posts dead blind [$1 + $2]``), the cards of a Swedish client (``Knc`` for ``Jc``),
and a walk's collection, which holds the part of the big blind nobody matched.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.arrays import as_mask
from pipeline.formats.logs import values
from pipeline.formats.logs.grammar import Amount, Grammar, Kind
from pipeline.formats.logs.lines import Rule
from pipeline.formats.logs.reader import site_of
from pipeline.hands.model import Action
from pipeline.hands.record import CODE, NO_CARD, SLOTS, Record

#: An amount inside the brackets: a sign before or after, thousands apart by a comma, a point or a
#: (no-break) space, which a file read in the wrong encoding writes "Â\u00a0" (``3Â 023,50 $``).
_AMOUNT = r"(?:[$€£] ?)?[0-9]+(?:(?:[.,\x{a0}\x{202f} ]|\x{c2}\x{a0})[0-9]+)*(?: ?[$€£])?"
_MONEY = r"\((?:Real Money|Play Money|Practice Play)\)"
_CARD = r"[2-9TJQKA][cdhs]"
#: A player's cards, as a client in any language writes them (see :func:`amend`).
_CARDS = r"[^\[\]]+"
_HEADER = r"\*{5} .+? Hand History for Game [0-9]+ \*{5}"


class Pacific(Grammar):
    """888poker's lines, verbs and games."""

    name = "888poker"
    venue = "888poker"
    hand_start = _HEADER
    rules = (
        Rule(Kind.SUMMARY, r"\*\* Summary \*\*", prefix="** Summary"),
        # A missed small and big blind, posted at once: the small blind dead, the big blind live
        # (read as the live post; :func:`amend` puts the dead part in before it).
        Rule(Kind.ACTION, rf"(?P<name>.+) (?P<verb>posts dead blind) \[{_AMOUNT} \+ (?P<amount>{_AMOUNT})\]",
             contains=" posts dead blind [", where="body"),
        Rule(Kind.ACTION, rf"(?P<name>.+) (?P<verb>posts small blind|posts big blind|posts ante|calls|bets"
                          rf"|raises) \[(?P<amount>{_AMOUNT})\]", contains=" [", where="body"),
        Rule(Kind.ACTION, r"(?P<name>.+) (?P<verb>folds)", contains=" folds", where="body"),
        Rule(Kind.ACTION, r"(?P<name>.+) (?P<verb>checks)", contains=" checks", where="body"),
        Rule(Kind.SEAT, rf"Seat (?P<seat>[0-9]+): (?P<name>.+) \( (?P<stack>{_AMOUNT}) \)", prefix="Seat ",
             where="body"),
        Rule(Kind.COLLECT, rf"(?P<name>.+) collected \[ (?P<amount>{_AMOUNT}) \]", contains=" collected [ ",
             where="summary"),
        Rule(Kind.SHOW, rf"(?P<name>.+) shows \[ (?P<cards>{_CARDS}) \]", contains=" shows [ ",
             where="summary"),
        Rule(Kind.MUCK, rf"(?P<name>.+) mucks \[ (?P<cards>{_CARDS}) \]", contains=" mucks [ ",
             where="summary"),
        Rule(Kind.FIELDS, r"\*{5} .+? Hand History for Game (?P<hand_id>[0-9]+) \*{5}", prefix="*****"),
        Rule(Kind.IGNORE, r"#Game No : [0-9]+", prefix="#Game No : "),
        Rule(Kind.FIELDS, rf"(?P<stakes>(?P<small>{_AMOUNT})/(?P<big>{_AMOUNT})) Blinds (?P<game>.+?)"
                          r"(?: Jackpot table)? - \*\*\* "
                          r"(?P<time>[0-9]{2} [0-9]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2})",
             contains=" Blinds ", where="body"),
        Rule(Kind.FIELDS, rf"Tournament #(?P<tournament_id>[0-9]+) (?P<buy_in>.+?) - Table #(?P<table>[0-9]+)"
                          rf"(?: (?P<max_seats>[0-9]+) Max)? {_MONEY}", prefix="Tournament #", where="body"),
        Rule(Kind.FIELDS, rf"Table (?P<table>.+?)(?: (?P<max_seats>[0-9]+) Max)? {_MONEY}", prefix="Table ",
             where="body"),
        Rule(Kind.FIELDS, r"Seat (?P<button>[0-9]+) is the button", prefix="Seat ", where="body"),
        Rule(Kind.IGNORE, r"Total number of players : [0-9]+", prefix="Total number of players : ",
             where="body"),
        Rule(Kind.IGNORE, r"\*\* Dealing down cards \*\*", prefix="** Dealing down", where="body"),
        Rule(Kind.STREET, rf"\*\* Dealing (?P<street>flop) \*\* \[ (?P<cards>(?:{_CARD}), (?:{_CARD}), "
                          rf"(?:{_CARD})) \]", prefix="** Dealing flop", where="body"),
        Rule(Kind.STREET, rf"\*\* Dealing (?P<street>turn|river) \*\* \[ (?P<cards>{_CARD}) \]",
             prefix="** Dealing ", where="body"),
        Rule(Kind.DEALT, rf"Dealt to (?P<name>.+) \[ (?P<cards>{_CARDS}) \]", prefix="Dealt to ",
             where="body"),
        # The winner of an uncontested pot: no muck (a muck is a showdown's loser).
        Rule(Kind.IGNORE, r".+ did not show his hand", contains=" did not show his hand", where="summary"),
        Rule(Kind.IGNORE, r"\((?:Hi|Lo): [^()]*\)", prefix="(", where="summary"),
    )
    verbs = {
        "posts small blind": (Action.POST_SMALL_BLIND, Amount.TO),
        "posts big blind": (Action.POST_BIG_BLIND, Amount.TO),
        "posts ante": (Action.POST_ANTE, Amount.TO), "posts dead blind": (Action.POST, Amount.TO),
        "folds": (Action.FOLD, Amount.NONE), "checks": (Action.CHECK, Amount.NONE),
        "calls": (Action.CALL, Amount.ADDS), "bets": (Action.BET, Amount.ADDS),
        "raises": (Action.RAISE, Amount.ADDS),
    }
    games = {"holdem": ("holdem", 2), "hold'em": ("holdem", 2), "omaha": ("omaha", 4),
             "omahahl": ("omaha-hilo", 4), "omaha hi/lo": ("omaha-hilo", 4)}
    betting = (("no limit", "no-limit"), ("pot limit", "pot-limit"), ("fix limit", "fixed-limit"),
               ("fixed limit", "fixed-limit"), ("limit", "fixed-limit"))
    time_formats = ("%d %m %Y %H:%M:%S",)
    ends_with = Kind.COLLECT
    head_lines = r"#Game No : [0-9]+"

    @classmethod
    def amend(cls, record: Record) -> Record:
        """What no rule can say, put right once a chunk is read (:func:`amend`)."""
        return amend(record)




#: What the dead part of ``posts dead blind [$1 + $2]`` is, in the action's text.
_DEAD_PART = rf"\[(?P<dead>{_AMOUNT}) \+ "
#: A card of a Swedish client's (a jack ``Kn``, a queen ``D``, an ace ``E``), and its English rank.
_SWEDISH = r"\b(?:Kn|D|E)[cdhs]\b"
_SWEDISH_RANKS = (("Kn", "J"), ("D", "Q"), ("E", "A"))
_LIVE_POSTS = np.array([CODE[action] for action in (Action.POST_SMALL_BLIND, Action.POST_BIG_BLIND,
                                                    Action.POST_STRADDLE, Action.POST)], dtype=np.int8)
_DEAD_POSTS = np.array([CODE[Action.POST_DEAD], CODE[Action.POST_ANTE]], dtype=np.int8)


def amend(record: Record) -> Record:
    """The Record of a chunk's hands as 888poker means them, from the engine's reading of its lines.

    What the site writes that a rule cannot say (changed in place, the Record returned):

    * ``posts dead blind [$1 + $2]`` is two posts: $1 dead, then $2 live.  The rule reads the live
      one; the dead one is put in before it, its amount taken from the action's text.
    * A client in Swedish writes the cards a player shows with its own ranks (``Kn`` a jack, ``D``
      a queen, ``E`` an ace: ``shows [ Ec, Knc, 3h, 3c ]``), its board in English: the shown cards
      are read in English.
    * A pot nobody bet or raised in is collected whole: the part of a blind nobody matched is in the
      ``collected`` amount (a walk: ``collected [ $0.15 ]`` for blinds of $0.05 and $0.10; a hand
      with a small blind alone: the small blind), where the replay gives it back to the player as
      an uncalled bet.  It is taken out of that player's collection.  (A bet or raise nobody
      called is never in it: ``raises [$2]`` over blinds of $0.50 and $1, all fold, ``collected [
      $2.50 ]``.)
    """
    if record.text is not None:
        _put_dead_parts(record)
        _put_local_cards(record)
    _take_out_unmatched_blinds(record)
    return record


def _put_dead_parts(record: Record) -> None:
    """Put in a post of the dead part before each ``posts dead blind`` (see :func:`amend`)."""
    assert record.text is not None
    posts = np.flatnonzero(record.action == CODE[Action.POST])
    if not len(posts):
        return
    texts = record.text.take(pa.array(posts, pa.int64()))
    dead = as_mask(pc.match_substring(texts, " posts dead blind ["))
    if not dead.any():
        return
    rows = posts[dead]
    parts = pc.extract_regex(texts.filter(pa.array(dead)), _DEAD_PART).field("dead")
    amount = values.amounts(parts)
    # Each action once, those of a dead blind twice: the first copy becomes the dead post.
    order = np.sort(np.concatenate([np.arange(len(record.action)), rows]), kind="stable")
    first = np.zeros(len(order), dtype=bool)
    first[:-1] = order[:-1] == order[1:]
    record.action_hand, record.slot = record.action_hand[order], record.slot[order]
    record.action, record.street = record.action[order], record.street[order]
    record.to, record.written = record.to[order], record.written[order]
    record.all_in = record.all_in[order]
    record.text = record.text.take(pa.array(order, pa.int64()))
    record.action[first] = CODE[Action.POST_DEAD]
    record.to[first] = record.written[first] = amount
    record.all_in[first] = False


def _put_local_cards(record: Record) -> None:
    """Read the cards shown or mucked with Swedish ranks (see :func:`amend`) into the hole cards."""
    assert record.text is not None
    rows = np.flatnonzero(np.isin(record.action, (CODE[Action.SHOW], CODE[Action.MUCK])))
    if not len(rows):
        return
    texts = record.text.take(pa.array(rows, pa.int64()))
    local = as_mask(pc.match_substring_regex(texts, _SWEDISH))
    if not local.any():
        return
    rows = rows[local]
    cards = pc.extract_regex(texts.filter(pa.array(local)), r"\[ (?P<cards>[^\[\]]+) \]$").field("cards")
    for rank, english in _SWEDISH_RANKS:
        cards = pc.replace_substring_regex(cards, rf"\b{rank}([cdhs])", rf"{english}\1")
    hand = record.action_hand[rows]
    dealt = (record.holes != NO_CARD).sum(axis=2).max(axis=1)
    values.put_cards(record.holes, hand, record.slot[rows].astype(np.int64), values.tidy_cards(cards), dealt)


def _take_out_unmatched_blinds(record: Record) -> None:
    """Take the part of a blind nobody matched out of its player's collection, in the hands that
    hold no bet or raise and whose collections are the chips put in with that part (see
    :func:`amend`)."""
    hand, slot, code = record.action_hand, record.slot, record.action
    raised = np.zeros(record.hands, dtype=bool)
    raised[hand[np.isin(code, (CODE[Action.BET], CODE[Action.RAISE]))]] = True
    live = np.zeros((record.hands, SLOTS))
    for rows, amount in ((np.isin(code, _LIVE_POSTS), record.to),
                         (code == CODE[Action.CALL], record.written)):
        np.add.at(live, (hand[rows], slot[rows]), np.nan_to_num(amount[rows]))
    dead = np.zeros(record.hands)
    posted_dead = np.isin(code, _DEAD_POSTS)
    np.add.at(dead, hand[posted_dead], np.nan_to_num(record.to[posted_dead]))
    ranked = np.sort(live, axis=1)
    unmatched = ranked[:, -1] - ranked[:, -2]
    put_in = live.sum(axis=1) + dead - unmatched
    collected = np.where(np.isfinite(record.received), record.received, 0.0).sum(axis=1)
    top = live.argmax(axis=1)
    fix = ~raised & (unmatched > 0) & (np.abs(collected - put_in - unmatched) < 1e-6)
    rows = np.flatnonzero(fix)
    record.received = record.received.copy()
    record.received[rows, top[rows]] = np.round(record.received[rows, top[rows]] - unmatched[rows], 9)


#: This site, as :mod:`pipeline.formats.sites` finds it.
SITE = site_of(Pacific)
