"""Headers: a table's column names and types checked before any row is read, so that no player is lost.

Layer: formats and I/O (:mod:`pipeline.formats`); imports the games'
columns (:mod:`pipeline.games.registry`, :mod:`pipeline.games.deals`) and
the foundation modules, never the runs or the command line.

This module owns the rules a table's header is held to, whatever carries
it: a CSV header, a Parquet schema, a table scored in memory
(:func:`pipeline.runs.api.score`).  A name appears once, names no seat
beyond p10, and is a known column exactly or not like one at all
(:func:`checked_columns`); a column a game reads holds text, not a list or
a struct (:func:`text_type_problem`, :func:`check_text_types`).
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from pipeline.errors import InputError
from pipeline.games import deals, registry
from pipeline.text import shown


def check_text_types(path: Path, schema: pa.Schema) -> None:
    """Refuse a Parquet column a game reads whose values are not text: a list, a struct, a map."""
    known = registry.known_columns()
    for field in schema:
        if field.name in known:
            problem = text_type_problem(field.type)
            if problem:
                raise InputError(f"{shown(str(path), None, quote=False)}: column {shown(field.name)} "
                                 f"{problem}")


def text_type_problem(kind: pa.DataType) -> str | None:
    """Why a column of this type cannot be read as card text, or None when it can.

    >>> text_type_problem(pa.list_(pa.string()))
    'is a list (list<item: string>): expected text (string), one value per row, like "Ah Kd"'
    >>> text_type_problem(pa.large_string()) is None
    True
    """
    if not pa.types.is_nested(kind):
        return None
    # Lists of every kind (large, fixed-size, views) are "list"; a struct, a map, a union by its name.
    what = "list" if "list" in str(kind).partition("<")[0] else str(kind).partition("<")[0]
    return f'is a {what} ({kind}): expected text (string), one value per row, like "Ah Kd"'


def _column_key(name: str) -> str:
    """A column name without case, spacing or a spelled-out seat: what it looks like.

    >>> _column_key(" Player_4"), _column_key("HAND 1"), _column_key("Seat3")
    ('p4', 'hand1', 'p3')
    """
    key = "".join(name.lower().split()).replace("_", "").replace("-", "")
    for prefix in ("player", "seat"):
        if key.startswith(prefix) and key[len(prefix):].isdigit():
            return "p" + key[len(prefix):]
    return key


def checked_columns(path: Path, names: tuple[str, ...]) -> tuple[str, ...]:
    """The header's column names, refused when a player could be lost.

    Raises InputError naming the column when a name appears twice (one of
    them would be dropped), names a seat beyond p10, or looks like a known
    column but for case, spacing or spelling (``P3``, ``player4``,
    ``hand1``): names are exact, so such a column would be ignored.
    """
    known_by_key = {_column_key(name): name for name in registry.known_columns()}
    first_place: dict[str, int] = {}
    for place, name in enumerate(names, start=1):
        if name in first_place:
            raise InputError(f"{path}: column {shown(name)} appears twice (columns {first_place[name]} "
                             f"and {place}): rename or remove one")
        first_place[name] = place
        key = _column_key(name)
        if key[:1] == "p" and key[1:].isdigit() and key not in known_by_key:
            raise InputError(f"{path}: column {shown(name)}: seats are p1 to p{deals.MAX_PLAYERS}, "
                             f"at most {deals.MAX_PLAYERS} players")
        known = known_by_key.get(key)
        if known is not None and known != name:
            raise InputError(f"{path}: column {shown(name)} looks like {known!r}: column names are "
                             f"exact (case and spacing count): rename it {known!r}")
    return names
