"""The registry of games: which games there are, by name and by the columns of a file.

Layer: games (:mod:`pipeline.games`), its top module; imports the game
modules and the interface, nothing above.

This module owns the list of games.  The readers, the runner, both
engines, ``contest``, ``generate`` and ``stats`` ask it (:func:`get`,
:func:`detect`, :func:`names`) and call the game; none of them compares
game names.  The built-in games are listed here; :func:`register` adds
another (a test's toy game, a plug-in).
"""

from __future__ import annotations

from pipeline.errors import InputError, UsageError
from pipeline.games import holdem, larvis, omaha, shortdeck
from pipeline.games.base import Game
from pipeline.text import shown

_REGISTRY: dict[str, Game] = {game.name: game for game in (
    holdem.GAME, larvis.GAME, omaha.OMAHA_GAME, omaha.HILO_GAME, shortdeck.GAME, shortdeck.TRIPS_GAME)}


def register(game: Game) -> Game:
    """Add a game to the registry (replacing one of the same name); return it."""
    _REGISTRY[game.name] = game
    return game


def unregister(name: str) -> None:
    """Remove a game from the registry (for tests that add one)."""
    _REGISTRY.pop(name, None)


def names() -> tuple[str, ...]:
    """The registered games' names, sorted.

    >>> names()
    ('holdem', 'larvis', 'omaha', 'omaha-hilo', 'shortdeck', 'shortdeck-trips')
    """
    return tuple(sorted(_REGISTRY))


def get(name: str) -> Game:
    """The game called ``name``; UsageError listing the known ones otherwise."""
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):  # TypeError: a list or a dict, which no game is called
        raise UsageError(f"unknown game {name!r}: expected {' or '.join(names())}") from None


def detect(label: str, columns: tuple[str, ...], *, hole_cards: int | None = None) -> Game:
    """The game whose columns (and cards) these are; InputError naming ``label`` when no game claims them.

    When several games claim the columns, the most specific claim wins: the
    game that requires more of them (``Hand1,Hand2`` before ``board``), then
    the first by name.  ``hole_cards``, the cards of a file's first seated
    hand where it has one, tells the board games apart (2 hold'em, 4 to 6
    Omaha).  A game that is not :attr:`~pipeline.games.base.Game.detectable`
    (hi-lo, short-deck) is never picked.

    >>> detect("a.csv", ("board", "p1")).name, detect("a.csv", ("board", "p1"), hole_cards=5).name
    ('holdem', 'omaha')
    """
    claiming = [game for game in map(get, names()) if game.detectable and game.claims(columns)]
    if hole_cards is not None:
        claiming = [game for game in claiming if game.holds(hole_cards)] or claiming
    if claiming:
        return max(claiming, key=lambda game: len(game.required_columns))
    shown_games = [game for game in map(get, names()) if game.detectable]
    expected = " or ".join(f"{game.columns_hint} ({game.title})" for game in shown_games)
    raise InputError(f"{label}: cannot tell the game from the columns "
                     f"{shown(', '.join(columns), quote=False) or '(none)'}: expected {expected}")


def known_columns() -> frozenset[str]:
    """Every column name some registered game reads."""
    return frozenset(name for game in map(get, names()) for name in game.known_columns())
