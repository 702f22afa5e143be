"""Statistics reports: how well observed category frequencies fit the exact ones.

Layer: runs (:mod:`pipeline.runs`); imports games, formats and pure
evaluation, never the command line.

This module owns ``pokerpipe stats``: the exact shares of each category
(from :mod:`pipeline.poker.exact`, through the game), the goodness-of-fit
of observed category frequencies against them (a Pearson chi-square test
with sparse categories pooled), when that test applies to a run (not to
hands from hand histories), the report over a run's folder and its
picture.
"""

from __future__ import annotations

import json
import math
import os
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pipeline.errors import InputError, UsageError
from pipeline.formats import readers, writers
from pipeline.games import registry
from pipeline.games.base import Game
from pipeline.games.tally import GAME_CATEGORY_SCHEMA
from pipeline.runs.scoring import MIXED
from pipeline.text import shown

#: What installs the plot's dependency, wherever it is run: pokerpipe is on no package index, so the
#: command names matplotlib itself, not the ``plot`` extra of pokerpipe.
PLOT_INSTALL_HINT = "pip install matplotlib"

#: Cochran's rule of thumb: the chi-square approximation is trusted only when
#: every cell expects at least this many observations.
MIN_EXPECTED = 5.0


def exact_counts(game: str, *, cards: int | None = None) -> dict[str, int]:
    """Number of hands in each category of a game, over every deal of its hand's cards.

    Parameters
    ----------
    game : str
        A registered game (:func:`pipeline.games.registry.names`).
    cards : int, optional
        Hand size; the game's own (``Game.hand_cards``) when None.  Hold'em
        also knows 5 (a five-card deal) besides its best five of 7.

    Returns
    -------
    counts : dict of str to int
        Category name to its number of hands, weakest first; the values sum
        to C(deck, cards), the game's deck (52 cards; short-deck 36).

    Raises
    ------
    UsageError
        For an unknown game, or a hand size the game has no counts for.

    Examples
    --------
    >>> exact_counts("larvis")["Four of a kind"]
    624
    >>> exact_counts("holdem", cards=5)["Straight Flush"]    # royal flushes included
    40
    """
    played = registry.get(game)
    # The type check keeps 5.0 or True from slipping through.
    if cards is not None and (type(cards) is not int or cards not in played.exact_hand_sizes):
        raise UsageError(f"no exact counts for game={game!r} with cards={cards!r}: known are "
                         f"{', '.join(map(str, played.exact_hand_sizes))}")
    return played.exact_counts(cards or played.hand_cards)


def exact_shares(game: str, *, cards: int) -> dict[str, float]:
    """Probability of each category for a uniformly random hand.

    Parameters and errors as :func:`exact_counts`.

    Returns
    -------
    shares : dict of str to float
        Category name to probability, weakest first; sums to 1 up to rounding.

    Examples
    --------
    >>> round(exact_shares("holdem", cards=5)["Pair"], 6)
    0.422569
    """
    counts = exact_counts(game, cards=cards)
    total = sum(counts.values())
    return {name: count / total for name, count in counts.items()}


def pooled_bins(expected: Mapping[str, float], *,
                minimum: float = MIN_EXPECTED) -> tuple[tuple[str, ...], ...]:
    """Group adjacent categories so that every group expects ``minimum`` or more.

    Categories are taken in the mapping's order, weakest first.  Walking from
    the strongest (where the rare hands are), a category expecting fewer
    than ``minimum`` observations is pooled with the next weaker ones until
    the group reaches it; a short group left at the weak end joins the
    stronger group beside it.  Pooling neighbours keeps each group a
    meaningful range of strength ("four of a kind or better").

    Parameters
    ----------
    expected : mapping of str to float
        Expected count of each category, weakest first; all positive.
    minimum : float

    Returns
    -------
    bins : tuple of tuples of str
        The groups, weakest first, each weakest first.  A single group when
        the total is below ``minimum``.

    Examples
    --------
    >>> pooled_bins({"a": 50.0, "b": 9.0, "c": 3.0, "d": 1.0})
    (('a',), ('b', 'c', 'd'))
    >>> pooled_bins({"a": 2.0, "b": 20.0, "c": 7.0})
    (('a', 'b'), ('c',))
    """
    bins: list[list[str]] = []
    current: list[str] = []
    total = 0.0
    for name in reversed(list(expected)):
        current.insert(0, name)
        total += expected[name]
        if total >= minimum:
            bins.insert(0, current)
            current, total = [], 0.0
    if current:
        if bins:
            bins[0] = current + bins[0]
        else:
            bins = [current]
    return tuple(tuple(b) for b in bins)


@dataclass(frozen=True, eq=False)
class FitResult:
    """Outcome of :func:`goodness_of_fit`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per category, weakest first, with columns ``category`` (str),
        ``observed`` (int64), ``observed_share`` (float64), ``exact_share``
        (float64), ``expected`` (float64, count under the exact shares) and
        ``residual`` (float64, standardized Pearson residual
        ``(observed - expected) / sqrt(n p (1 - p))``, about N(0, 1) for each
        category on its own; NaN where p is 0 or 1).
    chi2 : float
        Pearson statistic over the pooled bins; ``inf`` if a category of
        probability 0 was observed.
    dof : int
        Number of pooled bins minus one.
    p_value : float
        Upper tail of chi-square with ``dof`` degrees of freedom; 0 if an
        impossible category was observed, NaN when there are fewer than two
        bins (nothing to test).
    bins : tuple of tuples of str
        The categories pooled into each bin of the test (see
        :func:`pooled_bins`).
    not_applicable : str or None
        Why the test does not apply to these counts, whatever ``p_value``
        says: they are no random deals (see :func:`run_report`).  None from
        :func:`goodness_of_fit`, which knows only the counts.
    """

    table: pd.DataFrame
    chi2: float
    dof: int
    p_value: float
    bins: tuple[tuple[str, ...], ...]
    not_applicable: str | None = None

    @property
    def testable(self) -> bool:
        """Whether ``p_value`` answers a test: enough deals for at least two pooled bins, of
        counts the test applies to (``not_applicable`` is None)."""
        return self.not_applicable is None and self.dof >= 1 and not math.isnan(self.p_value)


def goodness_of_fit(observed: Mapping[str, int], expected_shares: Mapping[str, float]) -> FitResult:
    """Test observed category counts against exact category probabilities.

    Pearson's chi-square test over the categories, with two adjustments the
    approximation needs to stay honest:

    * a category of probability 0 is left out of the test if it was never
      observed; if it was, the shares are refuted outright (p = 0);
    * categories expecting fewer than ``MIN_EXPECTED`` observations are
      pooled with their weaker neighbours (:func:`pooled_bins`), because the
      chi-square distribution of the statistic fails for sparse cells.  The
      table still shows every category on its own.

    Parameters
    ----------
    observed : mapping of str to int
        Count of each category; a category missing from it counts 0.
    expected_shares : mapping of str to float
        Probability of each category, weakest first (as :func:`exact_shares`);
        non-negative, summing to 1.

    Returns
    -------
    FitResult

    Raises
    ------
    ValueError
        For an observed category without a share, a negative or fractional
        count, no observations at all, or shares that are negative or do not
        sum to 1.

    Examples
    --------
    >>> fit = goodness_of_fit({"x": 30, "y": 70}, {"x": 0.3, "y": 0.7})
    >>> fit.chi2, fit.dof, fit.p_value
    (0.0, 1, 1.0)
    """
    names = [str(name) for name in expected_shares]
    shares = np.array([expected_shares[name] for name in expected_shares], dtype=np.float64)
    if not len(shares) or not np.isfinite(shares).all() or (shares < 0).any():
        raise ValueError(f"expected shares must be finite and non-negative, got {dict(expected_shares)}")
    if abs(shares.sum() - 1.0) > 1e-6:
        raise ValueError(f"expected shares must sum to 1, they sum to {shares.sum()!r}")
    shares = shares / shares.sum()  # remove rounding so expected counts sum to n
    unknown = sorted(set(map(str, observed)) - set(names))
    if unknown:
        raise ValueError(f"observed categories {unknown} have no expected share; known: {names}")
    given = {str(name): count for name, count in observed.items()}
    raw = [given.get(name, 0) for name in names]
    if any(isinstance(x, bool) or int(x) != x or x < 0 for x in raw):
        raise ValueError(f"observed counts must be non-negative integers, got {dict(observed)}")
    counts = np.array([int(x) for x in raw], dtype=np.int64)
    n = int(counts.sum())
    if n == 0:
        raise ValueError("no observations: every observed count is 0")

    expected = n * shares
    with np.errstate(divide="ignore", invalid="ignore"):
        spread = np.sqrt(n * shares * (1.0 - shares))
        residual = np.where(spread > 0, (counts - expected) / spread, np.nan)
    table = pd.DataFrame({
        "category": pd.Series(names, dtype=object),
        "observed": counts,
        "observed_share": counts / n,
        "exact_share": shares,
        "expected": expected,
        "residual": residual,
    })

    possible = shares > 0
    bins = pooled_bins({name: e for name, e, p in zip(names, expected, possible) if p})
    dof = len(bins) - 1
    if (counts[~possible] > 0).any():
        return FitResult(table, math.inf, dof, 0.0, bins)
    if dof < 1:
        return FitResult(table, 0.0, 0, math.nan, bins)
    index = {name: i for i, name in enumerate(names)}
    binned_observed = np.array([sum(counts[index[m]] for m in b) for b in bins], dtype=np.float64)
    binned_expected = np.array([sum(expected[index[m]] for m in b) for b in bins])
    # scipy is needed only here; importing it lazily keeps the counts cheap to load.
    from scipy import stats

    result = stats.chisquare(binned_observed, binned_expected)
    return FitResult(table, float(result.statistic), dof, float(result.pvalue), bins)


#: The formats ``plot_fit`` writes, by the suffix that names them.
PLOT_FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}


def plot_format(path: str | os.PathLike[str], *, replace: bool = False) -> str:
    """The format a plot file's suffix names, checked before any work: png, svg or pdf.

    Raises
    ------
    UsageError
        An empty path, or a suffix of no format drawn here (a PNG under a
        ``.pdf`` name would be a broken file).
    OutputExists
        The file exists and ``replace`` is not set (a UsageError too).
    OutputError
        The file's folder does not exist: folders are never created for a plot.

    >>> plot_format("fit.PNG"), plot_format("./fit.svg")
    ('png', 'svg')
    """
    text = os.fspath(path)
    expected = ", ".join(PLOT_FORMATS)
    if not text.strip():
        raise UsageError(f"--plot needs a file name ending in {expected}")
    suffix = Path(text).suffix.lower()
    if suffix not in PLOT_FORMATS:
        raise UsageError(f"{shown(text, None, quote=False)}: a plot is written as {expected}, "
                         f"not {shown(suffix) if suffix else 'a file without a suffix'}")
    writers.check_writable(text, replace=replace, make_parents=False)
    return PLOT_FORMATS[suffix]


def plot_fit(fits: Mapping[str, FitResult], path: str | os.PathLike[str], *, replace: bool = False) -> None:
    """Draw observed against exact shares, one panel per fit, to a PNG, SVG or PDF file.

    Parameters
    ----------
    fits : mapping of str to FitResult
        Panel title (e.g. ``"holdem, 7 cards"``) to its fit; drawn in order.
    path : str or path-like
        Where the picture goes, in the format its suffix names
        (:func:`plot_format`), in a folder that exists.  It is written under
        a temporary name in the same folder and renamed into place, so a
        failed plot leaves no half file.
    replace : bool
        Replace a file of that name; without it an existing file is refused
        and one that appears meanwhile is left as it is.

    Raises
    ------
    InputError
        If ``fits`` is empty.
    UsageError, OutputError
        See :func:`plot_format`.
    ImportError
        If matplotlib (the ``plot`` extra) is not installed: one line ending in
        :data:`PLOT_INSTALL_HINT`.
    """
    image_format = plot_format(path, replace=replace)
    if not fits:
        raise InputError("nothing to plot: the run scored no deals to test")
    # Imported here so that the counting functions do not pay for matplotlib;
    # a bare Figure on the Agg canvas leaves pyplot's global backend alone.
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as error:
        raise ImportError(f"--plot needs matplotlib ({error}): {PLOT_INSTALL_HINT}") from None

    figure = Figure(figsize=(5.5 * len(fits), 4.8), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots(1, len(fits), squeeze=False)[0]
    for ax, (title, fit) in zip(axes, fits.items(), strict=True):
        table = fit.table
        x = np.arange(len(table))
        observed = table["observed_share"].to_numpy(dtype=np.float64)
        exact = table["exact_share"].to_numpy(dtype=np.float64)
        # A share of 0 has no place on a log axis: leave its bar out rather
        # than draw it down to the clipping floor.
        ax.bar(x - 0.2, np.where(observed > 0, observed, np.nan), width=0.4, label="observed")
        ax.bar(x + 0.2, np.where(exact > 0, exact, np.nan), width=0.4, label="exact")
        ax.set_yscale("log")
        positive = np.concatenate([observed[observed > 0], exact[exact > 0]])
        if positive.size:
            ax.set_ylim(positive.min() / 3, 1.0)
        ax.set_xticks(x, table["category"].tolist(), rotation=45, ha="right")
        ax.set_ylabel("share of hands")
        if fit.not_applicable is not None:
            verdict = textwrap.fill(f"chi-square does not apply: {fit.not_applicable}", 50)
        else:
            verdict = f"chi2 = {fit.chi2:.3g}, dof = {fit.dof}, p = {fit.p_value:.3g}"
        ax.set_title(f"{title}\n{verdict}")
        ax.legend()
    with writers.atomic_path(path, make_parents=False, replace=replace) as temporary:
        figure.savefig(temporary, format=image_format, dpi=100)


@dataclass(frozen=True, eq=False)
class ReportPart:
    """One part of :func:`run_report`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per category: a fit's table (see :class:`FitResult`), or the
        columns ``category``, ``count``, ``share``, ``wins`` and ``ties`` of
        ``categories.csv``.
    fit : FitResult or None
        The test against exact shares, for the part that has one.
    note : str or None
        What a part without its test says instead (the game's exact shares
        are not counted).
    """

    table: pd.DataFrame
    fit: FitResult | None = None
    note: str | None = None


def run_report(results: str | os.PathLike[str]) -> dict[str, ReportPart]:
    """Observed category frequencies of a run, beside the exact ones.

    Parameters
    ----------
    results : path of an output folder of ``pokerpipe run``
        Its ``summary.json`` names the game and ``categories.csv`` holds the
        counts.

    Returns
    -------
    dict of str to ReportPart
        The first seat's hand of every deal, tested against the exact shares
        (seven cards of hold'em or short-deck, five for Larvis; a game whose
        shares are not counted, Omaha, gets the observed shares and a note):
        one hand per deal, since the hands of a deal are not independent.
        Where the run's rows came from hand histories, the test does not
        apply (``FitResult.not_applicable`` says why, see
        :func:`not_random_deals`); the table still sets observed beside exact
        shares.  Then every hand and the winning hands by number of players,
        observed only: the exact shares of winning hands depend on the number
        of players and are not tabulated here.
    """
    folder = Path(results)
    summary_path, categories_path = folder / "summary.json", folder / "categories.csv"
    for needed in (summary_path, categories_path):
        if not needed.is_file():
            raise InputError(f"{folder}: no {needed.name}; is it an output folder of `pokerpipe run`?")
    try:
        summary = json.loads(summary_path.read_text(encoding="utf-8"))
        game = summary["game"]
    except (ValueError, UnicodeDecodeError, RecursionError) as error:  # JSONDecodeError is a ValueError
        raise InputError(f"{summary_path}: not a readable summary ({shown_error(error)})") from None
    except (KeyError, TypeError):
        raise InputError(f"{summary_path}: no \"game\" entry: not written by `pokerpipe run`") from None
    if not isinstance(game, str) or (game not in registry.names() and game != MIXED):
        raise InputError(f"{summary_path}: unknown game {shown(str(game))}")
    table = _read_categories(categories_path, summary)
    untested = not_random_deals(summary, summary_path)
    report: dict[str, ReportPart] = {}
    # categories.csv is per game: a run of hand histories may hold several.
    for name in dict.fromkeys(table["game"]):
        try:
            played = registry.get(name)
        except UsageError:
            line = int(np.flatnonzero((table["game"] == name).to_numpy(dtype=bool))[0]) + 2
            raise InputError(f"{categories_path}: line {line}: unknown game {shown(str(name))}") from None
        rows = table[table["game"] == name]
        foreign = ~rows["category"].isin(played.categories)
        if foreign.any():
            # The row's place in the file, whose line 1 is the header.
            line = int(rows.index[np.flatnonzero(foreign.to_numpy(dtype=bool))[0]]) + 2
            raise InputError(f"{categories_path}: line {line}: a category the game does not have: "
                             f"not a table written by `pokerpipe run`")
        report.update(_game_report(played, rows, untested))
    return report


def _game_report(played: Game, table: pd.DataFrame, untested: str | None) -> dict[str, ReportPart]:
    """The parts of :func:`run_report` for one game's rows of categories.csv."""
    game, cards = played.name, played.hand_cards
    report: dict[str, ReportPart] = {}
    # Hands of one deal share the board (hold'em) or the deck, so only one
    # hand per deal, the first seat's, makes independent draws for the test.
    tested = table[(table["players"] == "all") & (table["scope"] == "first_seat")]
    observed = dict(zip(tested["category"], tested["count"].astype(int)))
    if sum(observed.values()) and cards not in played.exact_hand_sizes:
        listing = tested[["category", "count", "share"]].reset_index(drop=True)
        report[f"{game}: first seat's hand ({cards} cards), observed shares"] = ReportPart(
            listing, note=f"exact shares of {played.title} hands are not counted: no test against them")
    elif sum(observed.values()):
        fit = replace(goodness_of_fit(observed, exact_shares(game, cards=cards)), not_applicable=untested)
        report[f"{game}: first seat's hand ({cards} cards) against exact shares"] = ReportPart(fit.table, fit)
    every_hand = table[table["scope"] == "hand"]
    for players, rows in every_hand.groupby("players", sort=False):
        listing = rows[["category", "count", "share", "wins", "ties"]].reset_index(drop=True)
        report[f"{game}: every hand, players = {players}"] = ReportPart(listing)
    winning = table[table["scope"] == "winning"]
    for players, rows in winning.groupby("players", sort=False):
        listing = rows[["category", "count", "share", "wins", "ties"]].reset_index(drop=True)
        report[f"{game}: winning hands, players = {players}"] = ReportPart(listing)
    return report


def not_random_deals(summary: Mapping[str, Any], path: str | os.PathLike[str] = "summary.json") -> str | None:
    """Why a run's hands are no random deals, for the test against exact shares; None if they may be.

    The exact shares are those of hands dealt from a shuffled deck.  The
    hands of a hand history that reach a showdown are not: players fold weak
    hands, so a real archive holds far fewer high cards than random deals,
    and a test of any size would only reject the shares, saying nothing of
    the scoring.  The rows' origin is in ``inputs``: the source format of
    each input (:data:`pipeline.formats.readers.HISTORY_FORMATS` are hand
    histories), and how many of its rows were scored.

    Parameters
    ----------
    summary : mapping
        A run's summary.json.  Without ``inputs`` the origin is not known,
        and the hands are taken as deals.
    path : path
        The summary's file, named in the error.

    Raises
    ------
    InputError
        ``inputs`` is not a list of entries with a format, as a run writes it.

    Examples
    --------
    >>> not_random_deals({"inputs": [{"format": "csv", "scored": 9}, {"format": "phh", "scored": 0}]})
    >>> print(not_random_deals({"inputs": [{"format": "pokerstars", "scored": 5}]}))
    the deals come from hand histories (pokerstars): a hand shown down is no random deal
    (players fold weak hands)
    """
    inputs = summary.get("inputs")
    if inputs is None:
        return None
    entries = inputs if isinstance(inputs, list) else [None]
    if not all(isinstance(entry, dict) and isinstance(entry.get("format"), str) for entry in entries):
        raise InputError(f"{path}: \"inputs\" is not a list of inputs with their format: "
                         f"not written by `pokerpipe run`")
    # An input none of whose rows was scored adds nothing to the counts.
    scoring = [entry["format"] for entry in inputs if entry.get("scored") != 0]
    found = [name for name in readers.HISTORY_FORMATS if name in scoring]
    if not found:
        return None
    share = "the" if all(name in readers.HISTORY_FORMATS for name in scoring) else "some"
    return (f"{share} deals come from hand histories ({', '.join(found)}): "
            f"a hand shown down is no random deal (players fold weak hands)")


def _read_categories(path: Path, summary: Mapping[str, Any]) -> pd.DataFrame:
    """categories.csv as written by a run, counts as integers; InputError naming what is wrong.

    The table must be the copy ``summary`` keeps (:func:`_check_against_summary`).
    A count is a whole number of at least 0, a share a number from 0 to 1,
    each category once per game, players and scope (that it is one of its
    game's, :func:`run_report` checks): anything else is no table a run
    wrote, and would give a test against the exact shares that means nothing.
    """
    try:
        table = pd.read_csv(path, dtype={"game": str, "players": str, "scope": str, "category": str})
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError) as error:
        raise InputError(f"{path}: not a readable CSV file ({shown_error(error)})") from None
    missing = [name for name in GAME_CATEGORY_SCHEMA.names if name not in table.columns]
    if missing:
        raise InputError(f"{path}: missing column {', '.join(missing)}: not written by `pokerpipe run`")
    try:
        for name in ("count", "wins", "ties"):
            table[name] = pd.to_numeric(table[name], errors="raise").astype("Int64")
        table["share"] = pd.to_numeric(table["share"], errors="raise")
    except (ValueError, TypeError, OverflowError) as error:
        raise InputError(f"{path}: a count is not a number ({shown_error(error)})") from None
    _check_against_summary(table, path, summary)
    if table.empty:  # a run that scored nothing still lists every category, with 0
        raise InputError(f"{path}: no rows: not a table written by `pokerpipe run`")
    counts = table[["count", "wins", "ties"]]  # wins and ties are empty where not tallied
    faults = {
        "a count is empty": table["count"].isna(),
        "a count is negative": (counts < 0).fillna(False).any(axis=1),
        "a share is not from 0 to 1": ~table["share"].between(0, 1),
        "a game is empty": table["game"].isna(),
        "a category listed twice": table.duplicated(["game", "players", "scope", "category"]),
    }
    for reason, rows in faults.items():
        if rows.any():
            line = int(np.flatnonzero(rows.to_numpy(dtype=bool))[0]) + 2  # the header is line 1
            raise InputError(f"{path}: line {line}: {reason}: not a table written by `pokerpipe run`")
    return table


def _check_against_summary(table: pd.DataFrame, path: Path, summary: Mapping[str, Any]) -> None:
    """Refuse a categories.csv that differs from the copy summary.json keeps (``statistics``).

    Both are written by the run; a table cut short or edited since would
    report frequencies the run never saw.  A summary without the copy
    checks nothing.
    """
    statistics = summary.get("statistics")
    kept = statistics.get("categories") if isinstance(statistics, dict) else None
    if not isinstance(kept, list):
        return
    read = table.astype(object).where(table.notna(), None).to_dict(orient="records")
    for line, (row, copy) in enumerate(zip(read, kept), start=2):
        same = isinstance(copy, dict) and all(_same_value(row[name], copy.get(name))
                                              for name in GAME_CATEGORY_SCHEMA.names)
        if not same:
            raise InputError(f"{path}: line {line} differs from the statistics in summary.json: "
                             f"the table was edited or cut short since the run")
    if len(read) != len(kept):
        raise InputError(f"{path}: {len(read)} rows, where summary.json's statistics hold {len(kept)}: "
                         f"the table was cut short or added to since the run")


def _same_value(read: Any, kept: Any) -> bool:
    """A value of categories.csv against summary.json's: shares as floats that went through text."""
    if isinstance(read, float) and isinstance(kept, int | float) and not isinstance(kept, bool):
        return math.isclose(read, kept, rel_tol=1e-9, abs_tol=1e-12)
    return bool(read == kept)


def shown_error(error: Exception) -> str:
    """The first line of an error's message, at most 200 characters."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return text[:200]


def report_json(part: ReportPart) -> dict[str, Any]:
    """One part of :func:`run_report` as plain JSON-ready values."""
    fit = part.fit
    document: dict[str, Any] = {"table": part.table.to_dict(orient="records")}
    if part.note is not None:
        document["note"] = part.note
    if fit is not None:
        document.update(chi2=fit.chi2, dof=fit.dof, p_value=fit.p_value if fit.testable else None,
                        bins=[list(b) for b in fit.bins], not_applicable=fit.not_applicable)
    return document
