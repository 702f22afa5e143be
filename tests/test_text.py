"""Text helpers every reader uses (:mod:`pipeline.text`): pieces of a text against Python's slices, and
the UTF-8 checks and repair against Python's own decoder read one fault at a time."""

from __future__ import annotations

import random

import numpy as np
import pyarrow as pa

from pipeline.text import is_utf8, repair_utf8, spans

# Well-formed sequences, ill-formed ones (a stray continuation, a lead cut short, an overlong
# form, a surrogate, past U+10FFFF) and the bytes around them.
PIECES = [b"a", b"\n", b"\xff", b"\xc3", b"\xa9", "\u20ac".encode(), b"\xe2\x82", b"\xed\xa0\x80",
          "\U0001f600".encode(), b"\xf4\x90", b"\xc0\x80", b"?", b"\x80", b"\r\n", "é".encode()]


def texts(count: int, seed: int = 7) -> list[bytes]:
    rng = random.Random(seed)
    return [b"".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 60))) for _ in range(count)]


def plainly(data: bytes) -> tuple[bytes, list[int]]:
    """Each byte of a fault as "?", and the lines of the faults: a plain loop over the faults."""
    fixed, lines, position = bytearray(data), [], 0
    while True:
        try:
            bytes(fixed[position:]).decode("utf-8")
            return bytes(fixed), lines
        except UnicodeDecodeError as error:
            start, end = position + error.start, position + error.end
            fixed[start:end] = b"?" * (end - start)
            if fixed.count(b"\n", 0, start) not in lines:
                lines.append(fixed.count(b"\n", 0, start))
            position = end


def decodes(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def test_bytes_are_utf8_exactly_when_python_decodes_them() -> None:
    for data in texts(500):
        assert is_utf8(data) == decodes(data), data
        assert is_utf8(bytearray(data)) == is_utf8(np.frombuffer(data, dtype=np.uint8)) == decodes(data)


def test_bytes_that_are_not_text_are_replaced_one_by_one_in_one_decoding() -> None:
    # Each byte of a fault becomes "?", and the lines of the faults are listed, as a plain loop
    # over the faults says, for text with many of them (read once, never once per fault).
    for data in texts(500):
        for given in (data, bytearray(data), np.frombuffer(data, dtype=np.uint8)):
            fixed, lines = repair_utf8(given)
            assert (bytes(fixed), lines.tolist()) == plainly(data)
            assert lines.dtype == np.int64 and decodes(bytes(fixed))


def test_text_already_utf8_is_given_back_as_it_is() -> None:
    data = "Gögo: raises 200\n".encode()
    fixed, lines = repair_utf8(data)
    assert fixed is data and lines.tolist() == []


def test_pieces_of_a_text_are_its_slices_and_null_where_absent() -> None:
    rng = random.Random(11)
    text = "Seat 3: Gögo (10,000 in chips) \u20ac\n".encode() * 4
    for _ in range(300):
        cuts = sorted(rng.choices(range(len(text) + 1), k=2 * rng.randrange(0, 8)))
        cuts = [cut for cut in cuts if not (0x80 <= text[cut % len(text)] < 0xC0)]  # between characters
        cuts = cuts[:len(cuts) // 2 * 2]
        start, end = np.array(cuts[0::2], dtype=np.int64), np.array(cuts[1::2], dtype=np.int64)
        expected = [text[a:b].decode() for a, b in zip(start.tolist(), end.tolist())]
        got = spans(pa.py_buffer(text), start, end)
        assert got.type == pa.large_string() and got.to_pylist() == expected
        present = np.array([rng.random() < 0.5 for _ in expected], dtype=bool)
        got = spans(pa.py_buffer(text), start, end, present)
        assert got.to_pylist() == [piece if keep else None for piece, keep in zip(expected, present)]
