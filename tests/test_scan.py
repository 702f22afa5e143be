"""Chunks of whole hands (:mod:`pipeline.formats.scan`), for a toy format whose hands start at a line
``#``: whatever the block size, the chunks are the text, each cut where a hand starts."""

from __future__ import annotations

import random

import numpy as np
import pyarrow as pa
import pytest

from pipeline.formats import scan

BOM = b"\xef\xbb\xbf"


def last_hash_line(text: np.ndarray, newlines: np.ndarray) -> int:
    """The toy format's last hand start: the last line after a line end that starts with '#'."""
    starts = newlines + 1
    starts = starts[starts < len(text)]
    starts = starts[text[starts] == ord("#")]
    return int(starts[-1]) if len(starts) else 0


def hands_text(rng: random.Random) -> bytes:
    lines = [rng.choice([b"# hand", b"a = 1", b"", b"\xc3\xa9t\xc3\xa9", b"x" * rng.randrange(0, 40)])
             for _ in range(rng.randrange(0, 30))]
    return b"\n".join(lines) + rng.choice([b"", b"\n"])


def read(text: bytes, size: int, first_size: int | None = None, tidy: scan.Tidy | None = None
         ) -> list[scan.Chunk]:
    return list(scan.chunks(pa.BufferReader(text), last_hash_line, size=size, first_size=first_size,
                            tidy=tidy))


@pytest.mark.parametrize("seed", range(40))
def test_the_chunks_are_the_text_cut_where_hands_start(seed: int) -> None:
    rng = random.Random(seed)
    text = hands_text(rng)
    mark = BOM if rng.random() < 0.3 else b""
    for size in (1, 2, 5, 17, 64, 1 << 16):
        got = read(mark + text, size, first_size=rng.choice([None, 1, 3]))
        assert b"".join(chunk.text.tobytes() for chunk in got) == text, size
        assert [chunk.end for chunk in got] == [False] * (len(got) - 1) + [True] * bool(got)
        for chunk in got:
            np.testing.assert_array_equal(chunk.newlines, scan.line_ends(chunk.text))
        for before, after in zip(got, got[1:]):  # a chunk ends where the next one's hand starts
            assert before.text.tobytes().endswith(b"\n") and after.text.tobytes().startswith(b"#")
        # A text of one block is one chunk; no text is none.
        assert len(read(mark + text, 1 << 16)) == bool(text)


def test_a_mark_opens_only_the_file() -> None:
    text = b"# 1\na\n" + BOM + b"# 2\n"
    (chunk,) = read(BOM + text, 1 << 10)
    assert chunk.text.tobytes() == text
    assert read(BOM, 2) == [] and read(b"", 2) == []


@pytest.mark.parametrize("size", [1, 2, 3, 7, 1 << 10])
def test_a_tidy_block_holds_back_bytes_for_the_next_one(size: int) -> None:
    # Line ends \r\n become \n; a \r at a block's end waits for the next block, which may start with \n.
    def tidy(text: np.ndarray, end: bool) -> tuple[np.ndarray, np.ndarray]:
        held = text[len(text):]
        if not end and len(text) and text[-1] == ord("\r"):
            text, held = text[:-1], text[-1:]
        return np.frombuffer(text.tobytes().replace(b"\r\n", b"\n"), dtype=np.uint8), held

    text = b"# 1\r\na\r\n# 2\r\nb\r\n\r\n# 3\r\n"
    got = read(text, size, tidy=tidy)
    assert b"".join(chunk.text.tobytes() for chunk in got) == text.replace(b"\r\n", b"\n")
    assert all(b"\r" not in chunk.text.tobytes() for chunk in got)
