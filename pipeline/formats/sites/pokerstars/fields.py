"""PokerStars lines cut into their fields: where each field of the site's lines is.

Layer: formats and I/O (:mod:`pipeline.formats`); imports
:mod:`~pipeline.formats.sites.pokerstars.lines`, :mod:`~pipeline.formats.sites.pokerstars.values` and the
foundation modules, numpy and pyarrow.

This module owns where the fields of the site's lines are: seat lines (:class:`SeatLines`,
:func:`seat_lines`, :func:`seat_numbers`), action lines (:class:`ActionLines`,
:func:`action_lines`), collections (:func:`collection_lines`), cash-outs and uncalled bets
(:func:`paid_lines`), the summary's seat lines (:func:`summary_lines`), ``Dealt to``
(:func:`dealt_lines`), totals (:func:`totals`), the board (:func:`board_texts`), headers
(:func:`header_fields`, :func:`variant`) and table lines (:func:`table_lines`,
:func:`number_at`).  Each is read in the bytes where its form is fixed and by a pattern, given by
the caller (:mod:`~pipeline.formats.sites.pokerstars.record`, which owns the patterns), where it is not;
what a field's text is worth is :mod:`~pipeline.formats.sites.pokerstars.values`'.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.arrays import as_mask, first_per
from pipeline.formats.sites.pokerstars.lines import (
    COLON,
    SPACE,
    ZERO,
    Bytes,
    Lines,
    bracketed,
    digits,
    found_in,
    last_found,
    lengths,
    matching,
    take,
    token_ends,
)
from pipeline.formats.sites.pokerstars.values import amounts, amounts_at


@dataclass
class SeatLines:
    """The lines ``Seat N: NAME (STACK in chips)`` of a chunk, cut into their fields.

    Every ``Seat `` line (the summaries' too), shape (lines,): ``all_rows``, its
    N (``all_number``, 0 for none) and where the text after ``": "`` starts
    (``all_name_at``, -1).  Those of the preambles that read as seat lines,
    shape (seats,), in line order: ``rows``, ``number`` (as written, maybe out
    of range), ``name`` (pyarrow strings) and its bytes ``name_length``,
    ``stack`` (float64) and ``said_more`` (the line says more than
    ``in chips)`` after the stack: it may mark a player out).
    """

    all_rows: NDArray[np.int64]
    all_number: NDArray[np.int64]
    all_name_at: NDArray[np.int64]
    rows: NDArray[np.int64]
    number: NDArray[np.int64]
    name: pa.Array
    name_length: NDArray[np.int64]
    stack: NDArray[np.float64]
    said_more: NDArray[np.bool_]


def seat_lines(lines: Lines, plain: tuple[str, str], pattern: str) -> SeatLines:
    """The seat lines of the preambles: a name without a parenthesis (``plain``: the pattern of such a
    line, and of many at once; nearly all) cut by plain searches, the others by ``pattern``'s captures
    ``seat``, ``name``, ``stack``."""
    text, start = lines.text, lines.line_start
    all_rows = lines.starting("Seat ")
    all_number, all_name_at = seat_numbers(text, start[all_rows])
    in_preamble = lines.preamble(all_rows)
    candidates, candidate_name_at = all_rows[in_preamble], all_name_at[in_preamble]
    candidate_lines = lines.take(candidates)
    cut = matching(candidate_lines, *plain) & (candidate_name_at > 0)
    cut_rows, cut_at = candidates[cut], candidate_name_at[cut]
    paren = found_in(candidate_lines.filter(pa.array(cut)), " (")
    # The stack: the word after " (", nearly always the line's end but " in chips)" (and a space).
    stack_at, ends = start[cut_rows] + paren + 2, lines.content_end[cut_rows]
    stack_end = np.maximum(ends - len(" in chips)") - (lines.last_byte[cut_rows] == SPACE), stack_at)
    stacks = amounts(text.slices(stack_at, stack_end))
    if np.isnan(stacks).any():  # a word that is more than the stack: each cut at its space
        stack_end = token_ends(text, stack_at, ends)
        stacks = amounts(text.slices(stack_at, stack_end))
    found = pc.extract_regex(candidate_lines.filter(pa.array(~cut)), pattern)
    ok = found.is_valid().to_numpy(zero_copy_only=False)
    fields = found.filter(pa.array(ok))
    # A number of more digits than any seat has may not fit in int64: read as 0.
    number = fields.field("seat")
    number = pc.if_else(pc.greater(pc.utf8_length(number), 3), pa.scalar("0", number.type), number)
    rows = np.concatenate([cut_rows, candidates[~cut][ok]])
    order = np.argsort(rows, kind="stable")
    return SeatLines(
        all_rows=all_rows, all_number=all_number, all_name_at=all_name_at, rows=rows[order],
        number=np.concatenate([all_number[in_preamble][cut], pc.cast(number, pa.int64()).to_numpy(
            zero_copy_only=False) if ok.any() else np.zeros(0, np.int64)])[order],
        name=take(pa.concat_arrays([text.slices(start[cut_rows] + cut_at, start[cut_rows] + paren),
                                    fields.field("name").cast(pa.large_string())]), order),
        name_length=np.concatenate([paren - cut_at, lengths(fields.field("name"))])[order],
        stack=np.concatenate([stacks, amounts(fields.field("stack"))])[order],
        said_more=np.concatenate([ends - stack_end > len(" in chips) "),
                                  np.ones(int(ok.sum()), bool)])[order])


@dataclass
class ActionLines:
    """The lines ``NAME: WORDS`` of the hands' bodies, in line order (shape (actions,) each, but
    ``words``): ``rows``; ``colon``, where the line's last ``": "`` is (the name before it, the
    words after); ``names`` (pyarrow strings); ``word``, the index of its words in ``words``, the
    different words of the chunk's actions (each once: they recur).  ``open_end``, shape (lines,):
    the last byte of a body line that is no action (0 elsewhere), what a collection ends with."""

    rows: NDArray[np.int64]
    colon: NDArray[np.int64]
    names: pa.Array
    word: NDArray[np.int64]
    words: pa.Array
    open_end: NDArray[np.uint8]


def action_lines(lines: Lines, seat_rows: NDArray[np.int64], plain: tuple[bytes, ...],
                 ends: NDArray[np.bool_], words: tuple[str, str]) -> ActionLines:
    """The action lines: words ``plain`` (of a fixed form, holding no ``": "``) found at a line's end;
    in the other lines that can end as an action (``ends``: by their last byte), the words after the
    first ``": "`` matched by ``words[0]``, once per different text; a line whose words hold another
    ``": "`` (its name holds one, or a hi-lo hand's shown halves do) matched by ``words[1]`` (the
    words after a ``": "``, to the line's end), its name the longest start of the line they follow."""
    text, start, end, last_byte = lines.text, lines.line_start, lines.content_end, lines.last_byte
    body = ~lines.start & ~lines.is_marker & (np.arange(lines.n) <= lines.summary_at[lines.hand_of])
    in_body = body.copy()
    in_body[seat_rows] = False
    colon = np.full(lines.n, -1, dtype=np.int64)  # where the last ": " of each action line is
    code = np.full(lines.n, -1, dtype=np.int64)  # and its words, as an index in the words
    for ending in {form[-1] for form in plain}:
        rows = np.flatnonzero(last_byte == ending)
        rows = rows[in_body[rows]]
        for index, form in enumerate(plain):
            if form[-1] == ending:
                form = b": " + form
                found = rows[(end[rows] - start[rows] >= len(form)) & text.has(end[rows] - len(form), form)]
                colon[found], code[found] = end[found] - len(form), index
    candidates = np.flatnonzero(in_body & (colon < 0) & ends[last_byte])
    first_colon = found_in(lines.take(candidates), ": ")
    rows = candidates[first_colon >= 0]
    first_at = start[rows] + first_colon[first_colon >= 0]
    after = text.slices(first_at + 2, lines.line_stop[rows]).dictionary_encode()
    texts, word_code = after.dictionary, after.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    colon_again = as_mask(pc.match_substring(texts, ": "))[word_code]
    read = as_mask(pc.match_substring_regex(texts, words[0]))[word_code] & ~colon_again
    colon[rows[read]], code[rows[read]] = first_at[read], len(plain) + word_code[read]
    rows = rows[colon_again]
    rows = rows[as_mask(pc.match_substring_regex(lines.take(rows), words[1]))]
    # The name: the longest start of the line that ``words[1]`` follows (the last ": " of a line
    # whose words hold none; before a hi-lo hand's "(HI: ..; LO: ..)", the one before its words).
    named = pc.extract_regex(lines.take(rows), "^(?P<name>.*)" + words[1]).field("name")
    colon[rows] = start[rows] + lengths(named)
    later = text.slices(colon[rows] + 2, lines.line_stop[rows]).dictionary_encode()
    code[rows] = len(plain) + len(texts) + later.indices.to_numpy(zero_copy_only=False)
    action_rows = np.flatnonzero(colon >= 0)
    at = colon[action_rows]
    return ActionLines(rows=action_rows, colon=at, names=text.slices(start[action_rows], at),
                       word=code[action_rows],
                       open_end=np.where(body & (colon < 0), last_byte, 0).astype(np.uint8),
                       words=pa.concat_arrays([pa.array([form.decode() for form in plain], pa.large_string()),
                                               texts, later.dictionary]))


def collection_lines(lines: Lines, open_end: NDArray[np.uint8], pattern: tuple[str, str]
                     ) -> tuple[NDArray[np.int64], pa.Array, NDArray[np.float64], pa.Array]:
    """The lines ``NAME collected AMOUNT from pot | main pot | side pot[-N]`` (``pattern``: of one such
    line, and of many at once), read in the body's lines that are no action and whose end
    (``open_end``) may be one: " pot", "pot-" and digits, or a space.

    Returns their rows, names, amounts and pots (with what ends the line).
    """
    text, start, end = lines.text, lines.line_start, lines.content_end
    pot = np.flatnonzero(open_end == ord("t"))
    pot = pot[(end[pot] - start[pot] >= 4) & text.has(end[pot] - 4, b" pot")]
    numbered = np.flatnonzero(digits(open_end))
    numbered_pot = []
    for count in range(1, 13):  # "pot-" before the last digits, as many as there are
        before = end[numbered] - count
        numbered_pot.append(numbered[(before - 4 >= start[numbered]) & text.has(
            np.maximum(before - 4, 0), b"pot-")])
        more = (before - 1 >= start[numbered]) & digits(text.bytes[np.maximum(before - 1, 0)])
        numbered = numbered[more]
    # Also more digits than counted, and spaces at the end: the pattern reads them all.
    candidates = np.unique(np.concatenate([pot, *numbered_pot, numbered, np.flatnonzero(open_end == SPACE)]))
    candidate_lines = lines.take(candidates)
    ok = matching(candidate_lines, *pattern)
    # The line matched the pattern: the name is before the last " collected ", the amount (no
    # space in it) after it, then " from " and the pot, until the spaces and the line end.
    name_and_rest = pc.split_pattern(candidate_lines.filter(pa.array(ok)), " collected ",
                                     max_splits=1, reverse=True)
    amount_and_pot = pc.split_pattern(pc.list_element(name_and_rest, 1), " from ", max_splits=1)
    return (candidates[ok], pc.list_element(name_and_rest, 0).cast(pa.large_string()),
            amounts(pc.list_element(amount_and_pot, 0)), pc.list_element(amount_and_pot, 1))


def paid_lines(lines: Lines, open_end: NDArray[np.uint8]) -> tuple[
        NDArray[np.int64], pa.Array, NDArray[np.float64], NDArray[np.int64], pa.Array, NDArray[np.float64]]:
    """The lines ``NAME cashed out the hand for X[ | Cash Out Fee Y]`` (no action, ending as an amount
    does, or with spaces: ``open_end``) and ``Uncalled bet (X) returned to NAME`` of the hands'
    bodies: the rows, names and amounts X of each kind."""
    text, start, end, hand_of = lines.text, lines.line_start, lines.content_end, lines.hand_of
    candidates = np.flatnonzero(digits(open_end) | (open_end == SPACE))
    found = found_in(lines.take(candidates), " cashed out the hand for ")
    cash_rows = candidates[found > 0]
    at = start[cash_rows] + found[found > 0]
    rows = lines.starting("Uncalled bet (")
    rows = rows[rows < lines.summary_at[hand_of[rows]]]
    back, close = amounts_at(text, start[rows] + len("Uncalled bet ("))
    said = text.has(close, b") returned to ")
    rows, back, close = rows[said], back[said], close[said]
    cashed = amounts_at(text, at + len(" cashed out the hand for "))[0]
    return (cash_rows, text.slices(start[cash_rows], at), cashed,
            rows, pc.utf8_rtrim(text.slices(close + len(") returned to "), end[rows]), characters=" "), back)


def summary_lines(lines: Lines, found: SeatLines, of_hand: NDArray[np.int64], name_length: NDArray[np.int64],
                  names: tuple[NDArray[np.int64], pa.Array]) -> tuple[NDArray[np.int64], NDArray[np.int64],
                                                                     NDArray[np.bool_], NDArray[np.int64]]:
    """The summaries' lines ``Seat N: NAME FATE`` (of :class:`SeatLines` ``found``): rows, N, whether
    the line names its seat's player (a seat of ``of_hand``, (hands, 10), whose name's bytes and
    code in the chunk's seated names are ``name_length`` and ``names``) and where its fate starts.

    ``Seat 3: ``, never ``Seat 03: ``: the number as written, then the name, byte for byte.
    """
    text, start = lines.text, lines.line_start
    summary = lines.in_summary(found.all_rows) & (found.all_name_at > 0)
    rows, number, at_name = found.all_rows[summary], found.all_number[summary], found.all_name_at[summary]
    slots = of_hand.shape[1]
    seat = np.where((number >= 1) & (number <= slots),
                    of_hand[lines.hand_of[rows], np.clip(number, 1, slots) - 1], -1)
    named = (seat >= 0) & ((at_name == 8) | (text.bytes[start[rows] + 5] != ZERO))
    seat = np.maximum(seat, 0)
    length = name_length[seat] if len(name_length) else np.zeros(len(rows), np.int64)
    named &= lines.line_stop[rows] - start[rows] - at_name >= length
    fate_at = start[rows] + at_name
    check = np.flatnonzero(named)
    if len(check):
        code = pc.index_in(text.slices(fate_at[check], fate_at[check] + length[check]),
                           value_set=names[1]).fill_null(-1).to_numpy(zero_copy_only=False)
        named[check] = code == names[0][seat[check]]
    return rows, number, named, fate_at + length


def dealt_lines(lines: Lines) -> tuple[NDArray[np.int64], pa.Array, pa.Array]:
    """The lines ``Dealt to NAME [CARDS]`` of the hands' bodies: rows, names and cards.  A name may hold
    a ``[``: the cards are after the line's last `` [``, found at once where they are two at its end
    (hold'em's), else searched for (Omaha's four to six)."""
    text, start, end = lines.text, lines.line_start, lines.content_end
    rows = lines.starting("Dealt to ")
    rows = rows[rows < lines.summary_at[lines.hand_of[rows]]]
    bracket = end[rows] - len(" [Ah Kd]")
    other = np.flatnonzero(~text.has(bracket, b" [") | (text.bytes[end[rows] - 1] != ord("]")))
    bracket[other] = last_found(lines.take(rows[other]), start[rows[other]], b" [")
    named = bracket > start[rows] + len("Dealt to ")
    rows, bracket = rows[named], bracket[named]
    return (rows, text.slices(start[rows] + len("Dealt to "), bracket),
            bracketed(text, bracket + 2, lines.line_stop[rows]))


def totals(lines: Lines, rows: NDArray[np.int64],
           pattern: str) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The total pot and the rake of the lines ``Total pot X ... | Rake Y`` at ``rows``, as ``pattern``'s
    ``total`` and ``rake`` read them: a line ``Total pot X | Rake Y`` and nothing after but spaces
    (nearly all) read in bytes, the others (side pots) by the pattern."""
    text = lines.text
    pot, after = amounts_at(text, lines.line_start[rows] + len("Total pot "))
    rake, end = amounts_at(text, after + len(" | Rake "))
    tail = lines.content_end[rows] - end
    spaces = (tail == 0) | ((tail == 1) & (text.bytes[end] == SPACE)) | (
        (tail == 2) & (text.bytes[end] == SPACE) & (text.bytes[end + 1] == SPACE))
    other = np.flatnonzero(~(text.has(after, b" | Rake ") & ~np.isnan(pot) & ~np.isnan(rake) & spaces))
    found = pc.extract_regex(lines.take(rows[other]), pattern)
    pot[other], rake[other] = amounts(found.field("total")), amounts(found.field("rake"))
    return pot, rake


def board_texts(lines: Lines) -> pa.Array:
    """(hands,) strings: the cards of each hand's first summary line ``Board [CARDS]``, "" for none."""
    board_row = lines.first_in_summary("Board [")
    has_board = board_row >= 0
    rows = board_row[has_board]
    found = bracketed(lines.text, lines.line_start[rows] + len("Board ["), lines.line_stop[rows])
    return pc.if_else(pa.array(has_board), take(found, np.maximum(np.cumsum(has_board) - 1, 0))
                      if has_board.any() else pa.nulls(lines.hands, pa.large_string()), "")



def header_fields(lines: Lines, plain: str, pattern: str) -> dict[str, pa.Array]:
    """The hand id, game, stakes (without their parenthesis), time, tournament, buy-in and level of
    each hand's header (pyarrow strings, shape (hands,)), as ``pattern``'s captures ``id``,
    ``variant`` (:func:`variant`), ``stakes``, ``time``, ``tournament``, ``buy_in``, ``level`` read
    them, null where it does not or the header does not say: a header of the form ``plain`` (a
    hold'em game, "Hold'em ... Limit (STAKES) - TIME", no tournament) is cut where its fixed
    characters are."""
    rows = lines.starts
    headers = lines.take(rows)
    cut = as_mask(pc.match_substring_regex(headers, plain))
    at_cut, other = np.flatnonzero(cut), np.flatnonzero(~cut)
    text, start, none = lines.text, lines.line_start[rows[at_cut]], pa.nulls(len(at_cut), pa.large_string())
    # "PokerStars [Zoom |Home Game ]Hand #ID: +Hold'em [No |Pot |Fixed ]Limit (STAKES) - TIME", read
    # in the bytes: the "#", the digits, the spaces, the game's words, then the stakes to their ")".
    number = start + len("PokerStars Hand ") + 5 * text.has(start + 11, b"Zoom ") + 10 * text.has(
        start + 11, b"Home Game ")
    colon = number + 1
    while (more := digits(text.bytes[colon])).any():
        colon += more
    game = colon + 1
    while (more := text.bytes[game] == SPACE).any():
        game += more
    opening = game + len("Hold'em Limit ") + sum(len(word) * text.has(game + 8, word)
                                                  for word in (b"No ", b"Pot ", b"Fixed "))
    closing = opening + found_in(text.slices(opening, lines.content_end[rows[at_cut]]), ")")
    fields = {"hand": text.slices(number + 1, colon), "variant": text.slices(game, opening - 1),
              "stakes": text.slices(opening + 1, closing),
              "time": text.slices(closing + len(") - "), lines.content_end[rows[at_cut]]),
              "tournament": none, "buy_in": none, "level": none}
    if not len(other):  # as nearly always
        return fields
    found = pc.extract_regex(headers.take(pa.array(other, pa.int64())), pattern)
    others = {"hand": found.field("id"), "variant": variant(found),
              "stakes": pc.replace_substring_regex(found.field("stakes"), r"^\((.*)\)$", r"\1"),
              "time": found.field("time")}
    for name in ("tournament", "buy_in", "level"):  # a group the header does not hold captures ""
        others[name] = pc.if_else(pc.equal(found.field(name), ""), pa.scalar(None, pa.large_string()),
                                  found.field(name))
    order = pa.array(np.argsort(np.concatenate([at_cut, other]), kind="stable"), pa.int64())
    return {name: pa.concat_arrays([field, others[name]]).take(order) for name, field in fields.items()}


def variant(header: pa.StructArray) -> pa.Array:
    """The game of each header a pattern with captures ``inner`` and ``variant`` read: the name inside
    the stakes' parenthesis (``(Omaha, $1/$2)``) or the one before it."""
    inner = header.field("inner")
    return pc.if_else(pc.not_equal(inner, ""), inner, pc.utf8_trim_whitespace(header.field("variant")))


def table_lines(lines: Lines) -> tuple[pa.Array, NDArray[np.int64], NDArray[np.int64]]:
    """Per hand, from the first line "Table 'NAME' 9-max Seat #N is the button" of its preamble: the
    table's name (null without one), its seats and the button's seat (0 where not written).

    The name ends at the line's last "' ", as ``^Table '(.*)' `` reads it; the rest is read in bytes.
    """
    text, hands = lines.text, lines.hands
    rows = lines.starting("Table '")
    rows = rows[lines.preamble(rows)]
    first = first_per(lines.hand_of[rows], hands, rows)
    has = np.flatnonzero(first >= 0)
    rows = first[has]
    start, end = lines.line_start[rows], lines.content_end[rows]
    # As nearly always "' 9-max Seat #8 is the button" ends the line: its last "' " is where they say.
    byte, button_at = text.bytes, end - len(" is the button")
    hash_at = np.where(byte[button_at - 2] == ord("#"), button_at - 2, button_at - 3)
    max_at = hash_at - len(" N-max Seat ")
    name_end = np.where(byte[max_at] == SPACE, max_at - 1, max_at - 2)
    plain = text.has(button_at, b" is the button") & text.has(hash_at - 5, b"Seat #") & text.has(
        max_at + 2, b"-max ") & text.has(name_end, b"' ") & (number_at(text, name_end + 2, b"-max") > 0) & (
        number_at(text, hash_at + 1, b" is the button") > 0)
    other = np.flatnonzero(~plain)
    name_end[other] = last_found(lines.take(rows[other]), start[other], b"' ")
    named = name_end >= start + len("Table '")
    name_end = np.where(named, name_end, end)
    begin, stop, present = np.zeros(hands, np.int64), np.zeros(hands, np.int64), np.zeros(hands, bool)
    begin[has], stop[has], present[has] = start + len("Table '"), name_end, named
    max_seats, button = np.zeros(hands, np.int64), np.zeros(hands, np.int64)
    max_seats[has] = np.where(named, number_at(text, name_end + 2, b"-max"), 0)
    seat_at = found_in(text.slices(name_end, end), "Seat #")
    button[has] = np.where(named & (seat_at >= 0), number_at(text, name_end + seat_at + len("Seat #"),
                                                             b" is the button"), 0)
    return text.slices(begin, stop, present), max_seats, button


def seat_numbers(text: Bytes, starts: np.ndarray) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """For lines (starting at ``starts``) ``Seat N: ...`` with N of one or two digits: N and where the
    text after ``": "`` starts; 0 and -1 for any other line.

    Bytes past a line's end are its ``\\n`` (or the padding), which no test below accepts.
    """
    byte = text.words[starts + 5].view(np.uint8).reshape(-1, 8)  # bytes 5 to 12 of each line
    digit = [byte[:, i].astype(np.int64) - ZERO for i in range(2)]
    colon = [(byte[:, 1 + i] == COLON) & (byte[:, 2 + i] == SPACE) for i in range(2)]
    one = digits(byte[:, 0]) & colon[0]
    two = digits(byte[:, 0]) & digits(byte[:, 1]) & colon[1]
    number = np.where(one, digit[0], np.where(two, 10 * digit[0] + digit[1], 0))
    return number, np.where(one, 8, np.where(two, 9, -1))


def number_at(text: Bytes, at: np.ndarray, after: bytes) -> NDArray[np.int64]:
    """The number of one or two digits at each offset ``at`` that ``after`` follows, 0 where none."""
    first, second = text.bytes[at].astype(np.int64) - ZERO, text.bytes[at + 1].astype(np.int64) - ZERO
    one = (first >= 0) & (first <= 9) & text.has(at + 1, after)
    two = (first >= 0) & (first <= 9) & (second >= 0) & (second <= 9) & text.has(at + 2, after)
    found: NDArray[np.int64] = np.where(one, first, np.where(two, 10 * first + second, 0))
    return found
