"""PHH files and their parts: a file's text cut into groups of whole hands, before any parsing.

Layer: formats and I/O (:mod:`pipeline.formats`); imports :mod:`~pipeline.formats.sources`,
:mod:`~pipeline.formats.scan` and the foundation modules, nothing else of the package.

This module owns what the reading of a PHH file knows of its bytes: which paths are PHH files
(:data:`SUFFIXES`: ``.phh``, one hand; ``.phhs``, the tables ``[1]``, ``[2]``, ...); a file read a
part at a time (:data:`CHUNK_BYTES`, the first part :data:`FIRST_PART_BYTES`) on a thread of its
own, ahead of the threads that parse; where the hands of a ``.phhs`` text start (its table
headers, outside the multi-line strings: :func:`hand_starts`) and where a part may end, so that no
hand and no multi-line string still open is cut; the one-hand files of a folder joined into
groups; and UTF-8: bytes that are not UTF-8 text become '?' and their lines are kept, for the
parser to reject their hands.  What it hands on is a :class:`Group` of at most
:data:`GROUP_HANDS` whole hands of text (:func:`hand_texts`); the parsing is
:mod:`~pipeline.formats.phh.toml`'s.
"""

from __future__ import annotations

import queue
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from pipeline.errors import InputError
from pipeline.formats import scan
from pipeline.formats.sources import Source, format_suffix
from pipeline.text import repair_utf8

SUFFIXES = (".phh", ".phhs")

#: Hands parsed and replayed at a time: enough that the cost of each numpy and pyarrow call
#: paid holding the GIL is small beside its loop, which releases it (threads then share a file
#: better: 4,096 hands gave 1.24-1.42x one core, 8,192 gave 1.47-1.50x), and few enough that the
#: arrays stay small and the allocator reuses their memory.
GROUP_HANDS = 1 << 13


def is_phh(path: Path) -> bool:
    """Whether a path names a PHH file, plain or compressed.

    >>> is_phh(Path("a/1.phh")), is_phh(Path("b.phhs.zst")), is_phh(Path("c.csv"))
    (True, True, False)
    """
    return format_suffix(path)[0] in SUFFIXES


def holds_one_hand(path: Path) -> bool:
    """Whether a PHH file holds one hand (``.phh``), not the tables of a ``.phhs`` file.

    >>> holds_one_hand(Path("a/1.phh")), holds_one_hand(Path("b.phhs.gz"))
    (True, False)
    """
    return format_suffix(path)[0] == ".phh"


#: Bytes of a .phhs file read at a time; a part of the file is cut where a hand starts
#: (:func:`pipeline.formats.scan.chunks`).  A part is parsed :data:`GROUP_HANDS` hands at a time,
#: so its size bounds the reading, not the parsing: it is a fact of its own, larger than the
#: PokerStars reader's chunk, which is parsed whole (pokerstars.CHUNK_BYTES, 8 MiB).
CHUNK_BYTES = 1 << 24
#: Bytes of the first part of a file: a small one, read at once, while the next is read on.
FIRST_PART_BYTES = 1 << 21


@dataclass(frozen=True)
class Group:
    """The text of a group of hands, as the reading thread cuts it, before any parsing.

    ``text`` holds whole hands with line ends \\n; ``starts`` the line of
    each hand within it; ``first_ordinal`` and ``first_line`` place its
    first hand in the file (from 1); ``bad`` holds (ordinal, line from 1)
    of the first line of a hand with bytes that are not UTF-8 text.  A group
    of one-hand files (``members``) holds a hand per file, each on its line 1.
    ``newlines``, the offsets of the line ends of ``text`` when the reading
    thread found them already (None: found where the group is parsed).
    """

    text: pa.Buffer
    starts: NDArray[np.int64]
    first_ordinal: int
    first_line: int
    multi: bool
    bad: tuple[tuple[int, int], ...] = ()
    members: tuple[Source, ...] = ()
    newlines: NDArray[np.intp] | None = None

    @property
    def last_ordinal(self) -> int:
        return self.first_ordinal + len(self.starts) - 1


def hand_texts(source: Source, *, batch_rows: int) -> Iterator[Group]:
    """The groups of hands of a source, read a part at a time (see :func:`pipeline.formats.phh.read_hands`).

    The parts are read, and their hand starts found, on a thread of their own ahead of the
    groups in use (:func:`_parts_ahead`), so that the threads that parse never wait for the file.
    """
    if source.members:
        yield from _member_texts(source, batch_rows=batch_rows)
        return
    phhs = _is_phhs(source.path)
    group_size = min(batch_rows, GROUP_HANDS)
    ordinal, line_base, head = 1, 0, True
    try:
        with pa.input_stream(str(source.path), compression=source.compression) as stream:
            for part in _parts_ahead(stream, phhs=phhs):
                # A part's groups are of even sizes.  A larger file's first part, small, is cut in
                # two groups, so that two threads start on it at once while the next part is read;
                # its last part too, so that two threads end together.
                groups = max(2 if head != part.end else 1, -(-len(part.starts) // group_size))
                size = max(1, -(-len(part.starts) // groups))
                for group in _part_groups(part.text, part.newlines, part.starts, phhs=phhs, head=head,
                                          ordinal=ordinal, line_base=line_base, group_size=size):
                    ordinal = group.last_ordinal + 1
                    yield group
                line_base += len(part.newlines)
                head = False
    except (pa.ArrowException, OSError) as error:
        raise InputError(f"{source.path}: cannot read ({error})") from None


#: Parts read and waiting to be taken, at most; the reader reads one more meanwhile, so up to
#: two parts are ahead of the one in use.  One ahead is not enough: a part read while the
#: scoring threads hold the GIL takes several times its 40 ms (each step waits for the GIL),
#: and the threads then waited for it at every part.
PARTS_WAITING = 1


def _parts_ahead(stream: pa.NativeFile, *, phhs: bool) -> Iterator[_Part]:
    """The parts of a file, in order (:func:`_parts`), read on a thread of their own.

    The thread reads ahead until :data:`PARTS_WAITING` parts wait to be taken, and one more.
    An error it meets is raised here, where the next part is taken; a caller that stops early
    (an error elsewhere, a generator closed) stops it, and the stream is never read after
    this function returns.
    """
    parts: queue.Queue[_Part | BaseException | None] = queue.Queue(maxsize=PARTS_WAITING)
    stop = threading.Event()

    def read() -> None:
        try:
            for part in _parts(stream, phhs=phhs):
                if stop.is_set():
                    break
                parts.put(part)
            parts.put(None)
        except BaseException as error:  # the reader's error is the caller's: raised where it takes parts
            parts.put(error)

    reader = threading.Thread(target=read, name="pokerpipe-read-ahead", daemon=True)
    reader.start()
    try:
        while (item := parts.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()
        while reader.is_alive():  # a reader waiting on a full queue sees the stop once one is taken
            while not parts.empty():
                parts.get_nowait()
            reader.join(timeout=0.01)


@dataclass(frozen=True)
class _Part:
    """Whole hands of a file as read, with the offsets of their line ends and hand starts; ``end``
    when the file ends there."""

    text: NDArray[np.uint8]
    newlines: NDArray[np.intp]
    starts: NDArray[np.int64]
    end: bool


def _parts(stream: pa.NativeFile, *, phhs: bool) -> Iterator[_Part]:
    """The parts of a file (:func:`pipeline.formats.scan.chunks`): a ``.phhs`` text cut where its last
    hand starts (:func:`_cut`), a ``.phh`` file read whole; none for a file without any text.

    The first part is read in a small piece (:data:`FIRST_PART_BYTES`), so that the work on it
    starts at once; the others :data:`CHUNK_BYTES` at a time.
    """
    cutter = _Cutter()
    for chunk in scan.chunks(stream, cutter if phhs else _one_hand, size=CHUNK_BYTES,
                             first_size=FIRST_PART_BYTES):
        if not phhs:
            starts = np.zeros(0, np.int64)
        elif chunk.end:  # the rest of the file, not cut: its starts are found here
            starts = hand_starts(chunk.text, chunk.newlines)
        else:
            starts = cutter.starts[cutter.starts < len(chunk.text)]
        yield _Part(chunk.text, chunk.newlines, starts, chunk.end)


def _one_hand(text: NDArray[np.uint8], newlines: NDArray[np.intp]) -> int:
    """A ``.phh`` file is one hand: it is never cut, but read whole."""
    return 0


class _Cutter:
    """Where a part of a ``.phhs`` text that is not the file's end ends (:func:`_cut`), as
    :func:`pipeline.formats.scan.chunks` asks; the hand starts of the text, found on the way, are
    kept for the part (``starts``), so that they are found once."""

    def __init__(self) -> None:
        self.starts = np.zeros(0, dtype=np.int64)

    def __call__(self, text: NDArray[np.uint8], newlines: NDArray[np.intp]) -> int:
        delimited = holds_a_delimiter(text)  # looked for once, for the starts and the cut
        self.starts = hand_starts(text, newlines, delimited=delimited)
        # A part ends where its last hand starts, so that no hand is cut, and before a
        # multi-line string the text does not close yet: its lines may be text, not headers.
        return _cut(text, self.starts, delimited=delimited)


def _cut(text: NDArray[np.uint8], starts: NDArray[np.int64], *, delimited: bool) -> int:
    """Where a part of a .phhs text that is not the file's end ends: its last hand start that is
    not after a multi-line string still open at the end of the text (0: none, read on).

    Whether such a string closes is known only once the rest is read, and so whether the
    header-like lines after its opening are headers; beyond :data:`LONGEST_OPEN_STRING` it is
    taken as TOML text taken at the end of the file is, opening nothing, so that memory stays
    bounded.
    """
    opened = _open_string(text, delimited=delimited)
    if opened >= 0 and len(text) - opened <= LONGEST_OPEN_STRING:
        starts = starts[starts < opened]
    return int(starts[-1]) if len(starts) else 0


#: The most bytes of a multi-line string that a part waits for its end (see :func:`_cut`).
LONGEST_OPEN_STRING = 1 << 26


def _member_texts(source: Source, *, batch_rows: int) -> Iterator[Group]:
    """The groups of a source of one-hand files: their texts joined, a hand per file."""
    group_size = min(batch_rows, GROUP_HANDS)
    for begin in range(0, len(source.members), group_size):
        members = source.members[begin:begin + group_size]
        texts: list[bytes] = []
        starts: list[int] = []
        bad: list[tuple[int, int]] = []
        line = 0
        for ordinal, member in enumerate(members, start=begin + 1):
            try:
                with pa.input_stream(str(member.path), compression=member.compression) as stream:
                    raw: bytes = stream.read()
            except (pa.ArrowException, OSError) as error:
                raise InputError(f"{member.path}: cannot read ({error})") from None
            blob, bad_lines = _clean_text(raw.removeprefix(scan.BOM))
            if not blob.endswith(b"\n"):
                blob += b"\n"
            if len(bad_lines):
                bad.append((ordinal, int(bad_lines[0]) + 1))
            starts.append(line)
            line += blob.count(b"\n")
            texts.append(blob)
        yield Group(pa.py_buffer(b"".join(texts)), np.array(starts, dtype=np.int64), begin + 1, 1, False,
                     tuple(bad), members)


def _part_groups(raw: NDArray[np.uint8], newlines: NDArray[np.intp], starts_at: NDArray[np.int64], *,
                 phhs: bool, head: bool, ordinal: int, line_base: int, group_size: int) -> Iterator[Group]:
    """The groups of hands of one part of a file: whole hands, the file's first part ``head``.

    ``newlines`` and ``starts_at`` are the byte offsets of the line ends and of the hand starts
    of ``raw`` (:func:`pipeline.formats.scan.line_ends`, :func:`hand_starts`).
    """
    blob, bad_lines = raw, np.zeros(0, dtype=np.int64)
    # ASCII with line ends \n, the common case, needs no cleaning and keeps its offsets.
    if not _plain_ascii(raw, newlines):
        text = raw.tobytes()
        cleaned, bad_lines = _clean_text(text)
        if cleaned is not text:  # bytes replaced or line ends changed: offsets move
            blob = np.frombuffer(cleaned, dtype=np.uint8)
            newlines = scan.line_ends(blob)
            starts_at = hand_starts(blob, newlines) if phhs else starts_at
    bad_lines = bad_lines + line_base
    headed = np.ones(len(starts_at), dtype=bool)
    # A .phh file is one hand; in a .phhs, text before the first header is a
    # hand when it holds a key (TOML reads those keys apart from the tables).
    head_end = int(starts_at[0]) if len(starts_at) else len(blob)
    if head and (not phhs or _holds_a_key(blob[:head_end].tobytes())):
        starts_at = np.concatenate([[0], starts_at]).astype(np.int64)
        headed = np.concatenate([[False], headed])
    start_lines = np.searchsorted(newlines, starts_at)  # lines before each hand, in the part
    hands = len(starts_at)
    buffer = pa.py_buffer(blob)
    begin = 0
    while begin < hands:
        # The hand without a header (only ever the first) is a group of its own.
        stop = begin + 1 if not headed[begin] else min(begin + group_size, hands)
        low = int(starts_at[begin])
        high = int(starts_at[stop]) if stop < hands else len(blob)
        first_line = line_base + int(start_lines[begin])
        last_line = line_base + int(start_lines[stop]) if stop < hands else line_base + len(newlines) + 1
        inside = bad_lines[(bad_lines >= first_line) & (bad_lines < last_line)]
        starts = (start_lines[begin:stop] - start_lines[begin]).astype(np.int64)
        owner = np.searchsorted(first_line + starts, inside, side="right") - 1  # the hand of each bad line
        bad = tuple((ordinal + begin + int(hand), int(line) + 1) for hand, line in zip(owner, inside)
                    if hand >= 0)
        # The part's line ends serve its groups: the scoring threads need not find them again.
        lines_end = int(start_lines[stop]) if stop < hands else len(newlines)
        yield Group(buffer.slice(low, high - low), starts, ordinal + begin, first_line + 1,
                     bool(headed[begin]), bad, newlines=newlines[int(start_lines[begin]):lines_end] - low)
        begin = stop


def _is_phhs(path: Path) -> bool:
    return format_suffix(path)[0] == ".phhs"


def _plain_ascii(blob: NDArray[np.uint8], newlines: NDArray[np.intp]) -> bool:
    """Whether a text is ASCII without a line end \\r\\n: UTF-8 that cleaning leaves as it is.

    ``newlines`` are the offsets of its line ends (:func:`pipeline.formats.scan.line_ends`): the
    bytes before them are looked at, not the whole text again.
    """
    crlf = blob[newlines[newlines > 0] - 1] == ord("\r")
    return not len(blob) or (int(blob.max()) < 0x80 and not np.any(crlf))


def hand_starts(blob: NDArray[np.uint8], newlines: NDArray[np.intp], *,
                 delimited: bool | None = None) -> NDArray[np.int64]:
    """Byte offsets of the table headers of a ``.phhs`` text: lines that start with '[', or with
    blanks and then a whole header (an indented ``  [2]`` is a header in TOML), outside the
    multi-line strings.  ``newlines`` are the offsets of its line ends
    (:func:`pipeline.formats.scan.line_ends`); ``delimited``, whether it holds a multi-line
    delimiter, if already known."""
    line_starts = np.concatenate([[0], newlines + 1])
    line_starts = line_starts[line_starts < len(blob)]
    lead = blob[line_starts]
    starts = line_starts[lead == ord("[")]
    indented = line_starts[(lead == ord(" ")) | (lead == ord("\t"))]
    if len(indented):
        ends = np.append(newlines, len(blob))[np.searchsorted(newlines, indented)]
        headers = [int(at) for at, end in zip(indented.tolist(), ends.tolist())
                   if _HEADER_LINE.match(blob[at:end].tobytes().decode("utf-8", errors="replace"))]
        starts = np.sort(np.concatenate([starts, np.array(headers, dtype=np.int64)]))
    found: NDArray[np.int64] = _outside_multiline_strings(blob, starts.astype(np.int64), delimited=delimited)
    return found


# The body of a multi-line string, after its delimiter; it may end with one or two quotes more.
_BASIC_BODY = rb'"""(?:[^"\\]|\\.|"(?!""))*'
_LITERAL_BODY = rb"'''(?:[^']|'(?!''))*"
_ONE_LINE = rb'|"(?:[^"\\\n]|\\[^\n])*"' rb"|'[^'\n]*'" rb"|#[^\n]*"
# A TOML string or comment, where it starts: outside them a quote always opens a string and '#' a
# comment.  No string but a multi-line one, and no comment, goes on past the end of its line.
_STRING_OR_COMMENT = re.compile(_BASIC_BODY + rb'""""{0,2}|' + _LITERAL_BODY + rb"''''{0,2}" + _ONE_LINE,
                                re.DOTALL)
_MULTILINE = (b'"""', b"'''")
# The same, and a multi-line string that runs on to the end of the text: tried after a closed one,
# before the one-line strings that would read its delimiter as an empty string and a quote.
_STRING_OR_COMMENT_TO_END = re.compile(
    _BASIC_BODY + rb'""""{0,2}|(?P<open>' + _BASIC_BODY + rb"\Z)|"
    + _LITERAL_BODY + rb"''''{0,2}|(?P<open_literal>" + _LITERAL_BODY + rb"\Z)" + _ONE_LINE, re.DOTALL)


def _open_string(blob: NDArray[np.uint8], *, delimited: bool | None = None) -> int:
    r"""Where a multi-line string that the text does not close opens, -1 if none.

    Only a text that holds a multi-line delimiter (``delimited``, if already known) is scanned.

    >>> _open_string(np.frombuffer(b"a = '''x\n[2]\n", dtype=np.uint8))
    4
    >>> _open_string(np.frombuffer(b"a = '''x'''\n# '''\nb = \"'''\"\n", dtype=np.uint8))
    -1
    """
    if not (holds_a_delimiter(blob) if delimited is None else delimited):
        return -1
    for match in _STRING_OR_COMMENT_TO_END.finditer(blob.tobytes()):
        if match.group("open") is not None or match.group("open_literal") is not None:
            return match.start()
    return -1


def _outside_multiline_strings(blob: NDArray[np.uint8], starts: NDArray[np.int64], *,
                               delimited: bool | None = None) -> NDArray[np.int64]:
    """The line starts that are not inside a multi-line string: such a line is text, never a header.

    Only a text that holds a multi-line delimiter (``delimited``, if already known) is scanned,
    its strings and comments in order, so that a delimiter inside another string or a comment
    opens nothing.
    """
    if not (holds_a_delimiter(blob) if delimited is None else delimited):
        return starts
    spans = np.array([match.span() for match in _STRING_OR_COMMENT.finditer(blob.tobytes())
                      if match.group()[:3] in _MULTILINE], dtype=np.int64).reshape(-1, 2)
    if not len(spans):
        return starts
    within = np.searchsorted(spans[:, 0], starts, side="right") - 1
    inside = (within >= 0) & (starts < spans[np.maximum(within, 0), 1])
    kept: NDArray[np.int64] = starts[~inside]
    return kept


def holds_a_delimiter(blob: NDArray[np.uint8]) -> bool:
    """Whether a text holds a multi-line string delimiter, ``\'\'\'`` or ``\"\"\"``.

    Three quotes in a row hold two that start at an even offset: the text's byte pairs are
    compared with two quotes, and the bytes around the few pairs found with a third.  These numpy
    passes release the GIL, where searching the bytes for the delimiters holds it, and take about
    a quarter of the time on a text full of quotes.
    """
    pairs = np.frombuffer(blob, dtype=np.uint16, count=len(blob) // 2)
    for quote in (ord("'"), ord('"')):
        at = 2 * np.flatnonzero(pairs == quote * 0x101)  # the same in either byte order
        if np.any(blob[at[at > 0] - 1] == quote) or np.any(blob[at[at + 2 < len(blob)] + 2] == quote):
            return True
    return False


def _holds_a_key(text: bytes) -> bool:
    """Whether TOML text holds anything but blank lines and comments."""
    return any(line.strip() and not line.strip().startswith(b"#") for line in text.split(b"\n"))


_HEADER_LINE = re.compile(r"^[ \t]*\[[ \t]*[A-Za-z0-9_-]+[ \t]*\][ \t]*(?:#.*)?$")


def _clean_text(blob: bytes) -> tuple[bytes, NDArray[np.int64]]:
    """Whole lines of a file as UTF-8 text with line ends \\n, and the lines (from 0) that were not.

    Bytes that are not UTF-8 become '?' (:func:`pipeline.text.repair_utf8`) so that the rest of
    the file reads; the hands holding them are rejected.
    """
    blob, bad_lines = repair_utf8(blob)
    return (blob.replace(b"\r\n", b"\n") if b"\r" in blob else blob), bad_lines
