"""pokerpipe: decide poker winners at archive scale.

Games share one pipeline: Larvis (suitless five-card poker, two hands head
to head), Texas Hold'em (1 to 10 players, best five of seven), Omaha and
Omaha hi-lo (two of four to six hole cards with three of the board), and
short-deck hold'em (the 36-card deck).
The package is built in layers, each importing only the layers below it:

* foundation: :mod:`pipeline.arrays`, :mod:`pipeline.errors`, :mod:`pipeline.ranges`,
  :mod:`pipeline.text`;
* :mod:`pipeline.poker`: pure evaluation, cards and the keys of every hand
  (:mod:`pipeline.poker.larvis`, :mod:`pipeline.poker.holdem`,
  :mod:`pipeline.poker.omaha`, :mod:`pipeline.poker.shortdeck`), best five,
  descriptions, exact counts;
* :mod:`pipeline.games`: the game interface and each game's rules;
* :mod:`pipeline.hands`: the poker facts of recorded hands, whatever their
  format: the Record every format fills, the replay of the chips, positions,
  the audit of the record, the hand tables;
* :mod:`pipeline.formats`: readers of every input format, writers, publishing;
* :mod:`pipeline.runs`: the run, its engines (threads, dask), equity, the
  library face, ``generate`` and the statistics reports;
* :mod:`pipeline.cli`: the command line, on top.

The library face (``from pipeline import score``) is listed in ``__all__``:
:func:`score` scores a DataFrame or Arrow table in memory, :func:`run` runs
``pokerpipe run`` over files into an output folder, :func:`compare`
decides one Larvis game, and the key functions score arrays of hands.  Each
name is imported on first use, and ``__version__`` looked up on first use, so
``import pipeline`` stays cheap and the command line loads only what it runs.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from pipeline.errors import InputError, PokerpipeError, UsageError

if TYPE_CHECKING:
    __version__: str
    from pipeline.games.larvis import compare
    from pipeline.poker.holdem import deal_keys
    from pipeline.poker.holdem import hand_keys as holdem_hand_keys
    from pipeline.poker.holdem import key_categories as holdem_key_categories
    from pipeline.poker.larvis import hand_keys as larvis_hand_keys
    from pipeline.poker.larvis import key_categories as larvis_key_categories
    from pipeline.poker.omaha import hand_keys as omaha_hand_keys
    from pipeline.poker.omaha import low_keys as omaha_low_keys
    from pipeline.poker.shortdeck import hand_keys as shortdeck_hand_keys
    from pipeline.runs.api import run, score

#: Public name -> (module, attribute), imported on first use.
_LAZY = {
    "score": ("pipeline.runs.api", "score"),
    "run": ("pipeline.runs.api", "run"),
    "compare": ("pipeline.games.larvis", "compare"),
    "larvis_hand_keys": ("pipeline.poker.larvis", "hand_keys"),
    "larvis_key_categories": ("pipeline.poker.larvis", "key_categories"),
    "holdem_hand_keys": ("pipeline.poker.holdem", "hand_keys"),
    "deal_keys": ("pipeline.poker.holdem", "deal_keys"),
    "holdem_key_categories": ("pipeline.poker.holdem", "key_categories"),
    "omaha_hand_keys": ("pipeline.poker.omaha", "hand_keys"),
    "omaha_low_keys": ("pipeline.poker.omaha", "low_keys"),
    "shortdeck_hand_keys": ("pipeline.poker.shortdeck", "hand_keys"),
}

__all__ = [
    "score", "run", "compare", "larvis_hand_keys", "larvis_key_categories", "holdem_hand_keys", "deal_keys",
    "holdem_key_categories", "omaha_hand_keys", "omaha_low_keys", "shortdeck_hand_keys",
    "InputError", "UsageError", "PokerpipeError", "__version__",
]


def __getattr__(name: str) -> Any:
    if name == "__version__":
        value: Any = _version()
    elif name in _LAZY:
        module, attribute = _LAZY[name]
        value = getattr(import_module(module), attribute)
    else:
        raise AttributeError(f"module 'pipeline' has no attribute {name!r}")
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, "__version__"})


def _version() -> str:
    """The installed package's version, looked up on first use: importing
    :mod:`importlib.metadata` (and the email modules it pulls in) costs ~30 ms
    that a run does not need."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pokerpipe")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0.0.0"
