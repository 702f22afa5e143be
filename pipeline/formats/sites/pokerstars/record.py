"""The rules of PokerStars hands and their Record: what the site's lines mean, read from a chunk's text.

Layer: formats and I/O (:mod:`pipeline.formats`); imports
:mod:`~pipeline.formats.sites.pokerstars.lines`, :mod:`~pipeline.formats.sites.pokerstars.fields`,
:mod:`~pipeline.formats.sites.pokerstars.values` (the reading of the text, without its rules), the
reason of a game not scored (:func:`pipeline.formats.histories.unknown_game`), the board games'
seats, the hands' model and :class:`~pipeline.hands.record.Record`, and the foundation modules.

This module owns the format's patterns (headers, seat lines, actions, collections, totals,
stakes), the site's names of its games (:data:`GAMES`, :data:`BETTING`, :func:`game_of`), what
its lines mean (the kinds of action: :data:`_KINDS`), the rules a hand is rejected by as it is
read, and the :class:`~pipeline.hands.record.Record` of a chunk's hands filled in from the text
(:func:`parse`): seats, actions, showdown, summary, totals, the hand and action columns, what was
paid, the hole cards.

The games read are hold'em, Omaha, Omaha hi/lo, five- and six-card Omaha
(and hi/lo), and 6+ Hold'em, short deck as the site ranks it (a flush above
a full house, A-6-7-8-9 a straight, the other rankings hold'em's: the
``shortdeck`` game), each of any betting (``No Limit``, ``Pot Limit``,
``Limit``).  A hand is rejected, with its reason, for a game pokerpipe does
not score (stud, razz, draw, badugi, Courchevel: checked before anything
else), a header that cannot be read, a hand cut short before its ``***
SUMMARY ***``, a bad seat line, an action or a collection naming a player
who is not seated, a summary line naming another player than its seat.  The
text sets apart a hand run twice and a cancelled hand.  The record's own
result is what the seats collected (``collected ... from pot``), cashed out
(``cashed out the hand for X``, the fee taken) and were returned (``Uncalled
bet``), and the summary's ``Total pot ... | Rake``; the collectors of the main
pot (``from pot``, ``from main pot``, and a winner named ``(pot not awarded as
player cashed out)``) are named as such.

What the Record says
--------------------
Slot s is seat s + 1.  A seat is dealt in unless its seat line marks it
(``is sitting out``, ``out of hand``) and the hand shows it playing no part:
a tournament deals a player sitting out in, posts their blinds and folds
their hand, and the log writes those actions.  The first ``posts small
blind`` and ``posts big blind`` of a hand are its blinds; a later one is a
player's post to enter (``posts big blind``: a live post; ``posts small
blind``: dead money), and ``posts small & big blinds X`` is both, the hand's
small blind dead and the rest live.  6+ Hold'em's antes are dead money and
its one blind, ``posts button blind X``, a live post (the model has no code
of its own for it); the stakes' ``Button Blind X`` is the hand's big blind,
and it has no small blind.  Hole cards are read from ``Dealt to``, ``shows``
and the summary's ``showed``/``mucked`` (the last of these wins), as many as
the hand's game deals (two, or four to six for Omaha), the cards seen first;
a card of a seat dealt in that the text never shows is
:data:`~pipeline.hands.record.UNKNOWN_CARD`, and a slot holds as many cards as
the most any hand of the chunk deals (:data:`~pipeline.hands.record.NO_CARD`
past its own).  A hi-lo hand's shows write its halves (``shows [..] (HI: ..;
LO: ..)``) and its collections one line per half a player takes, each as
written: what a seat received is their sum, the odd chip where the site put
it.  A player the summary says ``mucked`` at a showdown without a ``mucks
hand`` line mucks at that summary line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

import pipeline.formats.sites.pokerstars.fields as fields
import pipeline.formats.sites.pokerstars.values as values
from pipeline.arrays import as_mask
from pipeline.formats.histories import unknown_game
from pipeline.formats.sites.pokerstars.lines import (
    Lines,
    Rejects,
    bracketed,
    found_in,
    lines_of,
    matching,
    streets,
    take,
)
from pipeline.games import deals
from pipeline.hands.model import VOCABULARIES, Action, Apart, vocabulary_column
from pipeline.hands.record import CODE, NO_CARD, SLOTS, UNKNOWN_CARD, Record
from pipeline.text import shown

#: The site, as the Record's ``site`` names it.
VENUE = "PokerStars"
_SEATS = deals.MAX_PLAYERS

# Amounts: a currency sign or none (tournament chips), digits with thousands separators.
_AMOUNT = r"[$€£¥]?[0-9][0-9,]*(?:\.[0-9]+)?"
_ALL_IN = rf"(?: and is all-in| and has reached the {_AMOUNT} cap)?"
_HEADER = (r"^PokerStars (?:Zoom |Home Game )?(?:Hand|Game) #(?P<id>[0-9]+): +(?:\{[^}]*\} +)?"
           r"(?:Tournament #(?P<tournament>[0-9]+), (?P<buy_in>Freeroll|[^ ]+(?: [A-Z]{3})?) +)?"
           r"(?P<variant>[^(]+?) (?:- )?(?P<stakes>(?:Level (?P<level>[^ ]+) )?\((?:(?P<inner>[^(),]+), )?"
           r"[^()]*\)) - (?P<time>.+?) *\n?$")
_SEAT = rf"^Seat (?P<seat>[0-9]+): (?P<name>.+) \((?P<stack>{_AMOUNT}) in chips[^()]*\)"
# A seat line whose name holds no parenthesis: cut by plain searches, no captures.
_PLAIN_SEAT = rf"^Seat [0-9]+: [^(]* \({_AMOUNT} in chips[^()]*\)"
# What a seat line says after its parenthesis of a player who may not be dealt in.
_SITTING_OUT = r"in chips[^()]*\) +(?:is sitting out|out of hand)"
# The site's words after "NAME: " in an action line, in full: chat never ends like this.
# (CARDS and TEXT stand for what is inside brackets and parentheses: see the patterns built from it.)
_ACTION_WORDS = (rf"(?:posts [a-z &-]+ {_AMOUNT}{_ALL_IN}|folds(?: \[CARDS\])?|checks"
                 rf"|calls {_AMOUNT}{_ALL_IN}|bets {_AMOUNT}{_ALL_IN}|raises {_AMOUNT} to {_AMOUNT}{_ALL_IN}"
                 r"|shows \[CARDS\](?: \(TEXT\))?|mucks hand|doesn't show hand"
                 r"|discards [0-9]+ cards?(?: \[CARDS\])?|stands pat(?: on \[CARDS\])?) *\n?$")
_ACTION = "^" + _ACTION_WORDS.replace("CARDS", r"[^\]]*").replace("TEXT", ".*")
# The same words holding no ": " but in the halves a hi-lo hand shows ("(HI: two pair, Nines and
# Sixes; LO: 8,6,4,3,2)"), after a ": ": the last such ": " of the line (the name is before it).
_NO_COLON_CARDS = r"(?:[^\]:]|:+[^\]: ])*:*"
_NO_COLON_TEXT = r"(?:[^\n:]|:+[^\n: ])*:*"
_SHOWN_TEXT = rf"(?:HI: )?{_NO_COLON_TEXT}(?:; LO: {_NO_COLON_TEXT})?"
_ACTION_AFTER = ": " + _ACTION_WORDS.replace("CARDS", _NO_COLON_CARDS).replace("TEXT", _SHOWN_TEXT)
_COLLECT = (rf"^(?P<name>.+) collected (?P<amount>{_AMOUNT}) from "
            r"(?P<pot>pot|main pot|side pot(?:-[0-9]+)?) *\n?$")
_TOTAL = rf"^Total pot (?P<total>{_AMOUNT})(?: .*)? \| Rake (?P<rake>{_AMOUNT})"
_TAGS = r"^(?: \([a-z ]+\))*"
# A header of the common form: a hold'em hand, whose full pattern (below) needs no captures to tell.
# It reads as :data:`_HEADER` does: no tournament, no braces, the game's words never "-", "Level"
# or a parenthesis (so the game ends there), no comma in the stakes (so no game inside them).
_HEADER_HOLDEM = (r"^PokerStars (?:Zoom |Home Game )?(?:Hand|Game) #[0-9]+: +"
                  r"Hold'em (?:(?:No|Pot|Fixed) )?Limit (?:- )?(?:Level [^ ]+ )?\([^(),]*\) - .+? *\n?$")
# A header that :data:`_HEADER` reads as its fixed characters cut it: no tournament, no braces, the
# game "Hold'em ... Limit" then " (" and the stakes, no comma (no game inside them), then " - " and a
# time starting and ending with other than a space.
_HEADER_PLAIN = (r"^PokerStars (?:Zoom |Home Game )?(?:Hand|Game) #[0-9]+: +Hold'em (?:(?:No|Pot|Fixed) )?"
                 r"Limit \([^(),]*\) - [^ \n](?:.*[^ \n])?\n?$")
# The blinds in the stakes (after the game or level they may name), or the one blind of a button-blind
# game (6+ Hold'em: "Button Blind $0.25 - Ante $0.25  USD"), and the currency's code.
_STAKES = (rf"(?:(?P<small>{_AMOUNT})/(?P<big>{_AMOUNT})|Button Blind (?P<button>{_AMOUNT}) - Ante {_AMOUNT})"
           r"(?:.* (?P<iso>[A-Z]{3}))?\)?$")
#: The games of the headers, by the words before their betting (``Omaha Hi/Lo`` of ``Omaha Hi/Lo Pot
#: Limit``): the one home of the site's names for them.  Each is the hands table's game and the hole
#: cards it deals a player.  6+ Hold'em is short deck as the site ranks it: a flush above a full house,
#: A-6-7-8-9 a straight, "all other hand rankings remain the same" (a straight above three of a kind).
GAMES: dict[str, tuple[str, int]] = {
    "Hold'em": ("holdem", 2),
    "Omaha": ("omaha", 4),
    "Omaha Hi/Lo": ("omaha-hilo", 4),
    "5 Card Omaha": ("omaha", 5),
    "5 Card Omaha Hi/Lo": ("omaha-hilo", 5),
    "6 Card Omaha": ("omaha", 6),
    "6 Card Omaha Hi/Lo": ("omaha-hilo", 6),
    "6+ Hold'em": ("shortdeck", 2),
}
#: The betting words that end a game's text, and the structure each names (the longer first).
BETTING = (("No Limit", "no-limit"), ("Pot Limit", "pot-limit"), ("Fixed Limit", "fixed-limit"),
           ("Limit", "fixed-limit"))
_HOLDEM_CODE = VOCABULARIES["game"].index(GAMES["Hold'em"][0])
_CASHED_OUT = (rf"{_TAGS} showed \[[^\]]*\] and won \((?P<amount>{_AMOUNT})\)"
               r".*\(pot not awarded as player cashed out\)")

# Patterns above, for many lines at once (see :func:`~pipeline.formats.sites.pokerstars.lines.matching`):
# the same, but that no class of characters takes a line end, and that what a pattern leaves open
# at a line's end is the rest of it.
_PLAIN_SEATS = lines_of(rf"Seat [0-9]+: [^(\n]* \({_AMOUNT} in chips[^()\n]*\).*")
_COLLECTS = lines_of(rf".+ collected {_AMOUNT} from (?:pot|main pot|side pot(?:-[0-9]+)?) *")
_HEADERS_HOLDEM = lines_of(r"PokerStars (?:Zoom |Home Game )?(?:Hand|Game) #[0-9]+: +Hold'em "
                               r"(?:(?:No|Pot|Fixed) )?Limit (?:- )?(?:Level [^ \n]+ )?\([^(),\n]*\) - .+? *")

# Words after "NAME: " that are actions as they stand, without reading an amount.
_PLAIN_ACTIONS = (b"folds", b"checks", b"mucks hand", b"doesn't show hand")
# The last byte of the text of a line that can be an action (before spaces): see :data:`_ACTION`.
_ACTION_ENDS = np.zeros(256, dtype=bool)
_ACTION_ENDS[np.frombuffer(b"0123456789nps])dt ", dtype=np.uint8)] = True
# What an action's words start with and what it records (the first that fits); its amount and whether it
# is all in.  Other posts are live ones; "doesn't show hand", "discards" and "stands pat" are no action
# of the model.
_KINDS = ((b"folds", Action.FOLD), (b"checks", Action.CHECK), (b"calls ", Action.CALL),
          (b"bets ", Action.BET), (b"raises ", Action.RAISE), (b"shows [", Action.SHOW),
          (b"mucks hand", Action.MUCK),
          (b"posts small blind ", Action.POST_SMALL_BLIND), (b"posts big blind ", Action.POST_BIG_BLIND),
          (b"posts the ante ", Action.POST_ANTE), (b"posts small & big blinds ", Action.POST_DEAD),
          (b"posts straddle ", Action.POST_STRADDLE), (b"posts ", Action.POST))
_BOTH, _SHOW, _MUCK = ([prefix for prefix, _ in _KINDS].index(words)
                       for words in (b"posts small & big blinds ", b"shows [", b"mucks hand"))
# By an action's code: its amount is its total on the street (``to``: posts, bets, raises); it is the
# chips the text says it adds (``written``: posts, bets, calls; a raise's amount is an increment).
_POSTS = [action for action in Action if action.name.startswith("POST")]
_TO, _WRITTEN = (np.isin(np.arange(len(Action)), [CODE[action] for action in (*_POSTS, *others)])
                 for others in ((Action.BET, Action.RAISE), (Action.BET, Action.CALL)))
_WORDS_AMOUNT = (rf"^(?:raises [^ ]+ to|posts [a-z &-]+|calls|bets) (?P<amount>{_AMOUNT})"
                 r"(?P<all_in> and is all-in)?")


def game_of(variant: str) -> tuple[str, int] | None:
    """The game a header's game text names (:data:`GAMES`, then the betting words of :data:`BETTING`)
    and the hole cards it deals a player; None for a game pokerpipe does not score.

    >>> game_of("Omaha Hi/Lo Pot Limit"), game_of("6+ Hold'em No Limit"), game_of("Razz Limit")
    (('omaha-hilo', 4), ('shortdeck', 2), None)
    """
    for ending, _ in BETTING:
        if variant.endswith(" " + ending):
            return GAMES.get(variant[:-len(ending) - 1])
    return None


def _check_headers(lines: Lines, rejects: Rejects) -> tuple[NDArray[np.int8], NDArray[np.int64]]:
    """Reject the hands whose header cannot be read, then those of a game pokerpipe does not score
    (:func:`game_of`); return, per hand, the code of its game in the hands table's vocabulary (-1 for
    none) and the hole cards the game deals a player (2 for none).

    A header of the common form is a hold'em hand as it stands (the pattern with captures, slower,
    runs on the others only); each other game's text is looked up once.
    """
    headers = lines.take(lines.starts)
    header_ok = matching(headers, _HEADER_HOLDEM, _HEADERS_HOLDEM)
    game = np.where(header_ok, _HOLDEM_CODE, -1).astype(np.int8)
    hole_cards = np.full(lines.hands, GAMES["Hold'em"][1], dtype=np.int64)
    other_headers = np.flatnonzero(~header_ok)
    if len(other_headers):
        other_header = pc.extract_regex(headers.take(pa.array(other_headers, pa.int64())), _HEADER)
        read = other_header.is_valid().to_numpy(zero_copy_only=False)
        header_ok[other_headers] = read
        names, at = values.distinct(fields.variant(other_header))
        games = [game_of(str(name)) for name in names]
        codes = np.array([VOCABULARIES["game"].index(found[0]) if found else -1 for found in games]
                         + [-1])[at]
        cards = np.array([found[1] if found else 2 for found in games] + [2])[at]
        game[other_headers], hole_cards[other_headers] = np.where(read, codes, -1), cards
        unknown = np.flatnonzero(read & (codes < 0))
        rejects.at(lines.starts[~header_ok], "hand header not understood")
        rejects.at(lines.starts[other_headers[unknown]],
                   [unknown_game(shown(str(names[at[i]]))) for i in unknown.tolist()])
    return game, hole_cards


@dataclass
class _Seats:
    """The seat lines of the preambles that are kept, in line order (shape (seats,) each).

    Names are matched as codes: one dictionary of the chunk's seated names, so that equal names have
    equal codes; a seat line, an action or a collection is a (hand, code) key.
    """

    found: fields.SeatLines  # every seat line read
    rows: NDArray[np.int64]
    number: NDArray[np.int64]  # the seat number, 1 to 10
    name: pa.Array
    name_length: NDArray[np.int64]
    stack: NDArray[np.float64]
    marked: NDArray[np.bool_]  # the line says "is sitting out" or "out of hand"
    hand: NDArray[np.int64]
    code: NDArray[np.int64]  # the name's code in ``names``, the chunk's seated names, each once
    names: pa.Array
    keys: pa.Array  # (hand, code) of each seat, as hand * len(names) + code
    sorted_keys: NDArray[np.int64]  # the same, ascending
    by_key: NDArray[np.int64]  # the seat of each of ``sorted_keys``
    of_hand: NDArray[np.int64]  # (hands, 10): the seat by hand and seat number - 1, -1 for none

    def seated(self, hand: np.ndarray, names: pa.Array) -> NDArray[np.int64]:
        """The seat number (1-based) of each name in its ``hand``, 0 when not seated there."""
        code = pc.index_in(names, value_set=self.names).fill_null(-1).to_numpy(zero_copy_only=False)
        keys = np.where(code >= 0, hand * len(self.names) + code, -1)
        if 4 * len(keys) < len(self.by_key):  # a few names: a search, no hash table of every seat built
            at = np.minimum(np.searchsorted(self.sorted_keys, keys), len(self.by_key) - 1)
            found = np.where(self.sorted_keys[at] == keys, self.by_key[at], -1)
        else:
            found = pc.index_in(pa.array(keys, pa.int64()), value_set=self.keys).fill_null(-1).to_numpy(
                zero_copy_only=False)
        return np.where(found >= 0, self.number[np.maximum(found, 0)] if len(self.number) else 0, 0)


def _seats(lines: Lines, rejects: Rejects) -> _Seats:
    """The seats of the preambles' seat lines; the hands of bad ones rejected: a seat numbered out of
    1 to 10, a seat listed twice, a name seated twice, no seat at all."""
    found = fields.seat_lines(lines, (_PLAIN_SEAT, _PLAIN_SEATS), _SEAT)
    out_of_range = (found.number < 1) | (found.number > _SEATS)
    rejects.at(found.rows[out_of_range], f"seats are numbered 1 to {_SEATS}")
    keep = np.flatnonzero(~out_of_range)
    rows, number, name = found.rows[keep], found.number[keep], take(found.name, keep)
    hand = lines.hand_of[rows]
    pair = hand * (_SEATS + 1) + number
    _, first_pair, pair_counts = np.unique(pair, return_index=True, return_counts=True)
    twice_seated = np.isin(pair, pair[first_pair[pair_counts > 1]]) if len(pair) else np.zeros(0, bool)
    rejects.at(rows[twice_seated], "a seat is listed twice")
    encoded = name.dictionary_encode()
    code = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    key = hand * len(encoded.dictionary) + code
    by_key = np.argsort(key, kind="stable")  # nearly sorted already: by hand
    same_key = key[by_key][1:] == key[by_key][:-1]
    doubled = np.zeros(len(rows), dtype=bool)
    doubled[by_key[1:][same_key]] = doubled[by_key[:-1][same_key]] = True
    rejects.at(rows[doubled], "a name is seated twice")
    rejects.at(lines.starts[np.bincount(hand, minlength=lines.hands) == 0], "no seat lines")
    of_hand = np.full((lines.hands, _SEATS), -1, dtype=np.int64)
    of_hand[hand, number - 1] = np.arange(len(rows))
    more = np.flatnonzero(found.said_more[keep])
    marked = np.zeros(len(rows), dtype=bool)
    marked[more] = as_mask(pc.match_substring_regex(lines.take(rows[more]), _SITTING_OUT))
    return _Seats(found=found, rows=rows, number=number, name=name, name_length=found.name_length[keep],
                  stack=found.stack[keep], marked=marked, hand=hand, code=code, names=encoded.dictionary,
                  keys=pa.array(key, pa.int64()), sorted_keys=key[by_key], by_key=by_key, of_hand=of_hand)


@dataclass
class _Actions:
    """The action lines of the hands' bodies (:class:`~pipeline.formats.sites.pokerstars.fields.ActionLines`),
    in line order (shape (actions,) each), and what their words say."""

    found: fields.ActionLines
    actor: NDArray[np.int64]  # the actor's seat number, 0 where not seated (filled by _name_actors)
    kind: NDArray[np.int64]  # an index in :data:`_KINDS`, -1 for words that are no action of the model
    # Per different words (``found.word``), read once each: the amount they say (a raise: its
    # total), NaN for none, and whether they say all in.
    amount: NDArray[np.float64]
    all_in: NDArray[np.bool_]


def _actions(lines: Lines, seats: _Seats) -> _Actions:
    """The action lines, and each different words' kind (the first of :data:`_KINDS` they start
    with), amount and all in (:data:`_WORDS_AMOUNT`)."""
    found = fields.action_lines(lines, seats.rows, _PLAIN_ACTIONS, _ACTION_ENDS, (_ACTION, _ACTION_AFTER))
    kind = np.full(len(found.words), -1, dtype=np.int64)
    for index, (prefix, _) in enumerate(_KINDS):
        kind[(kind < 0) & as_mask(pc.starts_with(found.words, prefix.decode()))] = index
    said = pc.extract_regex(found.words, _WORDS_AMOUNT)
    amount, all_in = values.amounts(said.field("amount")), as_mask(pc.not_equal(said.field("all_in"), ""))
    return _Actions(found=found, actor=np.zeros(len(found.rows), np.int64), kind=kind[found.word],
                    amount=amount, all_in=all_in)


@dataclass
class _Collections:
    """The collections (:func:`~pipeline.formats.sites.pokerstars.fields.collection_lines`), in line order."""

    rows: NDArray[np.int64]
    names: pa.Array
    amount: NDArray[np.float64]
    pot: pa.Array  # the pot, with what ends the line
    collector: NDArray[np.int64]  # the collector's seat number, 0 where not seated (filled by _name_actors)


def _name_actors(lines: Lines, seats: _Seats, rejects: Rejects, actions: _Actions,
                 collections: _Collections) -> None:
    """The seats of the names of actions and collections, looked up at once: each in the seat lines
    of its hand.  A name not seated there rejects its hand: it is never guessed."""
    rows = np.concatenate([actions.found.rows, collections.rows])
    found = seats.seated(lines.hand_of[rows], pa.concat_arrays([actions.found.names, collections.names]))
    actions.actor, collections.collector = found[:len(actions.found.rows)], found[len(actions.found.rows):]
    unseated = np.flatnonzero(actions.actor == 0)
    names = take(actions.found.names, unseated).to_pylist()
    rejects.at(actions.found.rows[unseated], [f"action of {shown(str(name))}, who is not seated"
                                              for name in names])
    unseated = np.flatnonzero(collections.collector == 0)
    rejects.at(collections.rows[unseated], [f"{shown(str(name))} collects, but is not seated"
                                            for name in take(collections.names, unseated).to_pylist()])


@dataclass
class _Showdown:
    """What the hands show and who the record says won the main pot."""

    hands: NDArray[np.bool_]  # (hands,): the hand has a "*** SHOW DOWN ***"
    shown: NDArray[np.bool_]  # (hands,): it has one, or a player shows
    shows: NDArray[np.int64]  # the actions "shows [..]" of seated players (indexes in the actions)
    cards: pa.Array  # the cards of each of them
    winners: NDArray[np.int64]  # (hands,): bit s - 1 for seat s, a winner of the main pot
    # The summary's "showed [..]" and "mucked [..]": their hand, slot and cards, in line order.
    summary_cards: tuple[NDArray[np.int64], NDArray[np.int64], pa.Array]
    # The summary's "mucked" at a showdown: their line and slot, in line order.
    summary_mucks: tuple[NDArray[np.int64], NDArray[np.int64]]


def _shows(lines: Lines, actions: _Actions) -> _Showdown:
    """The cards players show, and the hands with a showdown."""
    rows, actor = actions.found.rows, actions.actor
    showdown = lines.flag(lines.marked("*** SHOW DOWN ***"))
    shows = np.flatnonzero((actor > 0) & (actions.kind == _SHOW))
    cards = bracketed(lines.text, actions.found.colon[shows] + len(": shows ["),
                          lines.line_stop[rows[shows]])
    shown = showdown.copy()
    shown[lines.hand_of[rows[shows]]] = True
    return _Showdown(hands=showdown, shown=shown, shows=shows, cards=cards,
                     winners=np.zeros(lines.hands, dtype=np.int64),
                     summary_cards=(np.zeros(0, np.int64), np.zeros(0, np.int64),
                                    pa.nulls(0, pa.large_string())),
                     summary_mucks=(np.zeros(0, np.int64), np.zeros(0, np.int64)))


def _collected(lines: Lines, collections: _Collections, showdown: _Showdown) -> None:
    """The seats paid from the main pot at each showdown ("from pot", "from main pot")."""
    rows = collections.rows
    counted = np.flatnonzero(showdown.hands[lines.hand_of[rows]])
    pots = pc.utf8_rtrim(take(collections.pot, counted), characters=" \n")
    main_pot = as_mask(pc.is_in(pots, value_set=pa.array(["pot", "main pot"])))
    main = counted[main_pot & (collections.collector[counted] > 0)]
    np.bitwise_or.at(showdown.winners, lines.hand_of[rows[main]],
                     np.left_shift(1, collections.collector[main] - 1))


def _summary(lines: Lines, seats: _Seats, rejects: Rejects, collections: _Collections,
             showdown: _Showdown) -> None:
    """Each seat's fate in the summary, after "Seat N: " and that seat's name, exactly; a line that
    does not name its seat's player rejects its hand.  The cards each fate shows; at a showdown,
    who mucked, and who won the pot and cashed out instead."""
    text = lines.text
    rows, number, named, fate_at = fields.summary_lines(lines, seats.found, seats.of_hand, seats.name_length,
                                                     (seats.code, seats.names))
    wrong = np.flatnonzero(~named)
    rejects.at(rows[wrong], [f"summary line of seat {number[i]} does not name its player" for i in wrong])
    # A fate counts at a showdown, and its cards where someone shows (they are in the summary then).
    read = np.flatnonzero(named & showdown.shown[lines.hand_of[rows]])
    fates = text.slices(fate_at[read], lines.line_stop[rows[read]])
    fate_hand, fate_index = lines.hand_of[rows[read]], number[read] - 1
    # Each different fate is read once (the same ones recur).
    fate = fates.dictionary_encode()
    fate_texts, fate_code = fate.dictionary, fate.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    cards_at = np.where(as_mask(pc.match_substring_regex(fate_texts, _TAGS + r" (?:showed|mucked) \[")),
                        found_in(fate_texts, "[") + 1, -1)[fate_code]
    with_cards = np.flatnonzero(cards_at > 0)
    showdown.summary_cards = (fate_hand[with_cards], fate_index[with_cards], bracketed(
        text, fate_at[read][with_cards] + cards_at[with_cards], lines.line_stop[rows[read][with_cards]]))
    at_showdown = showdown.hands[fate_hand]  # the rest counts at a showdown only
    late = at_showdown & as_mask(pc.match_substring_regex(fate_texts, _TAGS + " mucked"))[fate_code]
    showdown.summary_mucks = (rows[read][late], fate_index[late])
    # A winner who cashed out won the main pot all the same.
    cashed_out = as_mask(pc.match_substring(fate_texts, "(pot not awarded as player cashed out)"))
    cash = np.flatnonzero(cashed_out[fate_code] & at_showdown)
    cash = cash[as_mask(pc.match_substring_regex(fates.take(pa.array(cash)), _CASHED_OUT))]
    np.bitwise_or.at(showdown.winners, fate_hand[cash], np.left_shift(1, fate_index[cash]))


@dataclass
class _Totals:
    """The summary's total pot and rake, and its board, per hand (shape (hands,))."""

    pot: NDArray[np.float64]
    rake: NDArray[np.float64]
    board: pa.Array  # the board's cards as written, "" where none


def _totals(lines: Lines) -> _Totals:
    """Total pot and rake; the board: the first line of each in the summary."""
    total_row = lines.first_in_summary("Total pot ")
    has_total = total_row >= 0
    pot, rake = np.full(lines.hands, np.nan), np.full(lines.hands, np.nan)
    pot[has_total], rake[has_total] = fields.totals(lines, total_row[has_total], _TOTAL)
    board = fields.board_texts(lines)
    return _Totals(pot=pot, rake=rake, board=board)


def _apart(lines: Lines, rejects: Rejects) -> NDArray[np.object_]:
    """(hands,) object: why the text sets each hand apart (:class:`~pipeline.hands.model.Apart`), None
    for none: a board run twice (``*** FIRST FLOP ***`` and the like), a cancelled hand."""
    twice = lines.flag(np.concatenate([
        lines.marked("*** FIRST SHOW DOWN ***"), lines.marked("*** FIRST FLOP ***"),
        lines.starting("Hand was run twice"), lines.starting("FIRST Board [")]))
    cancelled = lines.flag(lines.starting("Hand cancelled"))
    apart = np.full(lines.hands, None, dtype=object)
    apart[~rejects.mask & twice] = str(Apart.RUN_TWICE)
    apart[~rejects.mask & cancelled] = str(Apart.CANCELLED)
    return apart


def parse(lines: Lines, bad_lines: NDArray[np.int64], first_line: int,
           hands_before: int) -> tuple[Record, dict[str, pa.Array]]:
    """Read every hand of a chunk of whole hands (its ``lines``, those at ``bad_lines`` with bytes
    that were not UTF-8): the rules each hand is rejected by, in their order, then its Record, and
    the winners' columns as the header writes them."""
    rejects = Rejects(lines)
    game = _check_headers(lines, rejects)
    # The bytes were replaced: the hand is not read as if they were fine.
    rejects.at(bad_lines, "bytes that are not UTF-8 text")
    rejects.at(lines.starts[~lines.has_summary], "hand cut short: no *** SUMMARY *** line")
    seats = _seats(lines, rejects)
    actions = _actions(lines, seats)
    found = fields.collection_lines(lines, actions.found.open_end, (_COLLECT, _COLLECTS))
    collections = _Collections(*found, collector=np.zeros(len(found[0]), np.int64))
    _name_actors(lines, seats, rejects, actions, collections)
    showdown = _shows(lines, actions)
    _collected(lines, collections, showdown)
    _summary(lines, seats, rejects, collections, showdown)
    totals = _totals(lines)
    header = fields.header_fields(lines, _HEADER_PLAIN, _HEADER)
    table_name, max_seats, button = fields.table_lines(lines)
    # A rejected hand's line is that of its fault.
    line = first_line + np.where(rejects.mask, rejects.line, lines.starts)
    number = hands_before + 1 + np.arange(lines.hands, dtype=np.int64)
    record = _record(lines, rejects, seats, actions, collections, showdown, totals, header, game,
                     (table_name, max_seats, button), (number, line, _apart(lines, rejects)))
    return record, {name: header[name] for name in ("hand", "variant", "stakes", "time")}


def _record(lines: Lines, rejects: Rejects, seats: _Seats, actions: _Actions,
            collections: _Collections, showdown: _Showdown, totals: _Totals, header: dict[str, pa.Array],
            game: tuple[NDArray[np.int8], NDArray[np.int64]],
            table: tuple[pa.Array, NDArray[np.int64], NDArray[np.int64]],
            where: tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.object_]]) -> Record:
    """The Record of a chunk's hands: ``game`` their games' codes and the hole cards each deals a
    player (:func:`_check_headers`); ``table`` their table lines' name, seats and button; ``where``
    their numbers in the file, their first lines and why each is set apart."""
    (game_code, hole_cards), (table_name, max_seats, button), (number, line, apart) = game, table, where
    dealt = _dealt(lines, seats, actions, collections)
    hand = _hand_columns(header, game_code, table_name, max_seats)
    acts = _action_columns(lines, actions, showdown.summary_mucks,
                           hand["small_blind"].to_numpy(zero_copy_only=False))
    hand["ante"] = acts.pop("ante")
    received, cashed_out, returned = _paid(lines, seats, actions, collections, dealt)
    slot_of = np.where(dealt, seats.of_hand, -1).ravel()
    excerpt = np.array(rejects.text, dtype=object)
    excerpt[~rejects.mask] = None
    return Record(
        number=number, line=line, apart=apart,
        problem=np.array(rejects.reason, dtype=object),
        excerpt=excerpt.tolist(), hand=hand,
        button=np.where((button >= 1) & (button <= SLOTS), button - 1, -1).astype(np.int8),
        seat=np.where(dealt, np.arange(1, SLOTS + 1, dtype=np.int8), 0).astype(np.int8),
        # Names as codes of the chunk's seated names, the tables' type: no copy of each.
        player=pa.DictionaryArray.from_arrays(
            pa.array(seats.code[np.maximum(slot_of, 0)].astype(np.int32) if len(seats.rows)
                     else np.zeros(len(slot_of), np.int32), mask=slot_of < 0), seats.names),
        stack=np.where(dealt, seats.stack[np.maximum(seats.of_hand, 0)] if len(seats.rows) else 0, np.nan),
        holes=_holes(lines, seats, actions, showdown, dealt, hole_cards),
        board=values.board_codes(totals.board), **acts,
        received=received, cashed_out=cashed_out, returned=returned, pot=totals.pot, rake=totals.rake,
        # The collectors of the main pot ("from pot", "from main pot"): known whatever the side pots.
        main_pot=((showdown.winners[:, None] >> np.arange(SLOTS)) & 1).astype(bool) & dealt)


def _dealt(lines: Lines, seats: _Seats, actions: _Actions,
           collections: _Collections) -> NDArray[np.bool_]:
    """(hands, SLOTS) bool: a player is dealt in at the slot.  A seat line marked ``is sitting out``
    or ``out of hand`` is not, unless the player acts or collects in the hand: a tournament deals a
    player sitting out in, and the log writes the blinds posted and the hand folded for them."""
    dealt = np.zeros((lines.hands, SLOTS), dtype=bool)
    dealt[seats.hand, seats.number - 1] = True
    if seats.marked.any():  # the marked seats that play no part
        part = np.zeros((lines.hands, SLOTS), dtype=bool)
        for rows, seat in ((actions.found.rows, actions.actor), (collections.rows, collections.collector)):
            part[lines.hand_of[rows[seat > 0]], seat[seat > 0] - 1] = True
        marked = (seats.hand[seats.marked], seats.number[seats.marked] - 1)
        dealt[marked] = part[marked]
    return dealt


def _hand_columns(header: dict[str, pa.Array], game: NDArray[np.int8], table: pa.Array,
                  max_seats: NDArray[np.int64]) -> dict[str, pa.Array]:
    """The Record's per-hand columns (:data:`pipeline.hands.model.HANDS` values), the ante aside;
    ``game`` the code of each hand's game (-1 for none).  A button-blind game's one blind is its big
    blind, and it has no small blind.

    What recurs (stakes, games, levels, buy-ins) is read once per different text."""
    hands = len(game)
    tournament = header["tournament"].cast(pa.string())
    small, big, currency = values.stakes(header["stakes"], _STAKES)
    games, at = values.distinct(header["variant"])
    betting = np.array([next((VOCABULARIES["betting"].index(name) for ending, name in BETTING
                              if text.endswith(ending)), -1) for text in games] + [-1])[at]
    levels, at = values.distinct(header["level"])
    numbers = [values.level_number(text) for text in levels]
    level = np.array([-1 if number is None else number for number in numbers] + [-1])[at]
    buy_ins, at = values.distinct(header["buy_in"])
    times, zones = values.utc_times(header["time"])
    return {"hand_id": header["hand"].cast(pa.string()),
            "site": pa.DictionaryArray.from_arrays(pa.array(np.zeros(hands, np.int32)), pa.array([VENUE])),
            "table": table.cast(pa.string()), "time": times, "time_zone": zones.cast(pa.string()),
            "variant": header["variant"].cast(pa.string()),
            "game": vocabulary_column("game", np.maximum(game, 0), present=game >= 0),
            "betting": vocabulary_column("betting", np.maximum(betting, 0), present=betting >= 0),
            # Tournament chips are no currency.
            "currency": pc.if_else(tournament.is_null(), pa.array(currency, pa.string()),
                                   pa.scalar(None, pa.string())),
            "small_blind": values.floats(small), "big_blind": values.floats(big), "tournament_id": tournament,
            "buy_in": values.floats(np.array([*map(values.buy_in, buy_ins), np.nan])[at]),
            "level": pa.array(level.astype(np.int16), mask=level < 0),
            "max_seats": pa.array(max_seats.astype(np.int8), mask=max_seats == 0)}


def _action_columns(lines: Lines, actions: _Actions, mucks: tuple[NDArray[np.int64], NDArray[np.int64]],
                    small_blind: NDArray[np.float64]) -> dict[str, Any]:
    """The Record's per-action arrays (every action of a seated player, in line order; ``mucks``: the
    summary's mucks at a showdown, lines and slots) and, under
    ``"ante"``, each hand's ante (the most a ``posts the ante`` says), null where none is posted."""
    keep = np.flatnonzero((actions.actor > 0) & (actions.kind >= 0))
    rows, kind, word = actions.found.rows[keep], actions.kind[keep], actions.found.word[keep]
    slot, value, all_in = actions.actor[keep] - 1, actions.amount[word], actions.all_in[word]
    # A muck only the summary writes ("mucked" at a showdown, no "mucks hand"): an action at its line.
    muck_rows, muck_slot = mucks
    body_mucks = lines.hand_of[rows[kind == _MUCK]] * SLOTS + slot[kind == _MUCK]
    alone = np.flatnonzero(~np.isin(lines.hand_of[muck_rows] * SLOTS + muck_slot, body_mucks))
    if len(alone):
        order = np.argsort(np.concatenate([rows, muck_rows[alone]]), kind="stable")
        rows = np.concatenate([rows, muck_rows[alone]])[order]
        kind = np.concatenate([kind, np.full(len(alone), _MUCK)])[order]
        value = np.concatenate([value, np.full(len(alone), np.nan)])[order]
        slot = np.concatenate([slot, muck_slot[alone]])[order]
        all_in = np.concatenate([all_in, np.zeros(len(alone), bool)])[order]
    hand = lines.hand_of[rows]
    code = np.array([CODE[action] for _, action in _KINDS], dtype=np.int8)[kind]
    # The hand's first small and big blind are its blinds; a later one is a post to enter.
    for blind, later in ((Action.POST_SMALL_BLIND, Action.POST_DEAD), (Action.POST_BIG_BLIND, Action.POST)):
        posts = np.flatnonzero(code == CODE[blind])
        code[posts[1:][hand[posts][1:] == hand[posts][:-1]]] = CODE[later]
    ante = np.full(len(small_blind), np.nan)
    antes = code == CODE[Action.POST_ANTE]
    np.fmax.at(ante, hand[antes], value[antes])
    texts = lines.contents(rows)  # dictionary-encoded over the chunk's text: no copy
    street = streets(lines, rows)
    both = kind == _BOTH
    if both.any():  # "posts small & big blinds X": the hand's small blind, dead, then the rest, live
        copies = np.repeat(np.arange(len(keep)), np.where(both, 2, 1))
        second = np.zeros(len(copies), dtype=bool)
        second[1:] = copies[1:] == copies[:-1]
        dead = both[copies] & ~second
        code, value, all_in = code[copies], value[copies], all_in[copies]
        hand, street = hand[copies], street[copies]
        slot, texts = slot[copies], take(texts, copies)
        code[second] = CODE[Action.POST]
        # Amounts are decimal: the difference is rounded back to far below a cent.
        value[second] = np.round(value[second] - small_blind[hand[second]], 9)
        value[dead], all_in[dead] = small_blind[hand[dead]], False
    return {"action_hand": hand, "slot": slot.astype(np.int8), "action": code,
            "street": street, "to": np.where(_TO[code], value, np.nan),
            "written": np.where(_WRITTEN[code], value, np.nan), "all_in": all_in, "text": texts,
            "ante": values.floats(ante)}


def _paid(lines: Lines, seats: _Seats, actions: _Actions, collections: _Collections,
          dealt: NDArray[np.bool_]) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """(hands, SLOTS) each: what each seat collected, cashed out (``NAME cashed out the hand for X``)
    and was returned (``Uncalled bet (X) returned to NAME``); 0 where a seat dealt in has none, NaN
    at a slot no one is dealt into (0 for a cash-out)."""
    hand_of = lines.hand_of
    received = np.where(dealt, 0.0, np.nan)
    paid = np.flatnonzero(collections.collector > 0)
    np.add.at(received, (hand_of[collections.rows[paid]], collections.collector[paid] - 1),
              np.nan_to_num(collections.amount[paid]))
    cash_rows, cash_names, cashed, rows, back_names, back = fields.paid_lines(lines, actions.found.open_end)
    seat = seats.seated(hand_of[np.concatenate([cash_rows, rows])],
                        pa.concat_arrays([cash_names, back_names]))
    cashed_out, returned = np.zeros((lines.hands, SLOTS)), np.where(dealt, 0.0, np.nan)
    for paid_out, row, amount, at_seat in ((cashed_out, cash_rows, cashed, seat[:len(cash_rows)]),
                                           (returned, rows, back, seat[len(cash_rows):])):
        np.add.at(paid_out, (hand_of[row[at_seat > 0]], at_seat[at_seat > 0] - 1),
                  np.nan_to_num(amount[at_seat > 0]))
    return received, cashed_out, returned


def _holes(lines: Lines, seats: _Seats, actions: _Actions, showdown: _Showdown,
           dealt: NDArray[np.bool_], hole_cards: NDArray[np.int64]) -> NDArray[np.uint8]:
    """(hands, SLOTS, K) uint8: the hole cards each seat dealt in is seen with, from ``Dealt to NAME
    [..]``, then ``shows [..]``, then the summary's ``showed [..]``/``mucked [..]`` (a later one wins).
    ``hole_cards`` the cards each hand's game deals a player, K the most of them (2 for hold'em alone):
    a slot's cards first, unknown where not seen (the cards seen are the first), none past its last."""
    hand_of = lines.hand_of
    width = max(2, int(hole_cards.max())) if lines.hands else 2
    if width == 2:  # hold'em alone (and short deck): every slot dealt in holds two cards
        holes = np.full((lines.hands, SLOTS, 2), NO_CARD, dtype=np.uint8)
        holes[dealt] = UNKNOWN_CARD
    else:
        holes = np.where(dealt[:, :, None] & (np.arange(width) < hole_cards[:, None, None]), UNKNOWN_CARD,
                         NO_CARD).astype(np.uint8)
    rows, names, dealt_cards = fields.dealt_lines(lines)
    seat = seats.seated(hand_of[rows], names)
    summary_hand, summary_slot, summary_cards = showdown.summary_cards
    shows = actions.found.rows[showdown.shows]
    for hand, slot, cards in ((hand_of[rows], seat - 1, dealt_cards),
                              (hand_of[shows], actions.actor[showdown.shows] - 1, showdown.cards),
                              (summary_hand, summary_slot, summary_cards)):
        seen = np.flatnonzero((slot >= 0) & dealt[hand, np.maximum(slot, 0)])
        key = (hand * SLOTS + slot)[seen]
        if len(key) and np.bincount(key).max() > 1:  # a slot seen twice: its last cards count
            seen = seen[len(key) - 1 - np.unique(key[::-1], return_index=True)[1]]
        values.put_cards(holes, hand[seen], slot[seen], take(cards, seen), hole_cards)
    return holes
