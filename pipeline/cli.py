"""The command line: ``pokerpipe`` and its commands.

Layer: the command line, on top of every other; nothing of the package imports it.

This module owns the user-facing commands.  It parses arguments, calls the
library and turns exactly the library's own errors
(:class:`pipeline.errors.PokerpipeError`) into a one-line error and a
non-zero exit; any other exception is a bug and keeps its traceback.
Ctrl-C, SIGTERM and SIGHUP stop a command alike: what it was writing is
removed, nothing half-written is published, and the exit status is 128 +
the signal (130 for Ctrl-C), with one line saying so.  Memory or threads
running out are expected failures too (:func:`pipeline.errors.exhausted`):
one line naming the limit in force.
"""

from __future__ import annotations

import gc
import json
import sys
import threading
import time
from collections import Counter
from typing import Any

import click
import pyarrow as pa

from pipeline.errors import (
    InputError,
    OutputExists,
    PokerpipeError,
    ResourceError,
    Stopped,
    UsageError,
    exit_stopped,
    resource_limits,
    stop_on_signals,
)
from pipeline.formats import contest_files
from pipeline.formats.sources import DEFAULT_BATCH_ROWS
from pipeline.formats.writers import FORMATS
from pipeline.games import deals, holdem, larvis, registry
from pipeline.hands import allin
from pipeline.poker import notation
from pipeline.runs.threads import fit_address_space
from pipeline.text import escaped, shown

MAX_REJECT_LINES = 20
#: Reasons of the rejected rows past the first lines: counted up to this many different ones,
#: the commonest shown in the closing count.
MAX_REASONS_COUNTED = 1000
REASONS_SHOWN = 3
#: The characters of a reason the closing count shows: enough for the longest the readers give
#: (an unknown game names the games scored), so that a reason is never cut.
REASON_WIDTH = 100
#: Exit status of a run that rejected more rows than --max-rejects allows, its outputs published.
TOO_MANY_REJECTS = 3
ENGINES = ("local", "dask")


class BadInput(click.ClickException):
    """An error in what the user gave, exit status 2 like a usage error."""

    exit_code = 2


class _GameName(click.ParamType):  # type: ignore[type-arg]  # generic at run time only from click 8.5
    """A registered game's name, checked when the command line is parsed (games may be added)."""

    name = "game"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "GAME"

    def convert(self, value: str, param: click.Parameter | None, ctx: click.Context | None) -> str:
        if value not in registry.names():
            self.fail(f"{value!r} is not one of {', '.join(map(repr, registry.names()))}.", param, ctx)
        return value


def _one_line(error: PokerpipeError) -> click.ClickException:
    """The one line of a library error, with the exit status of its kind.

    A :class:`~pipeline.errors.UsageError` (a bad value, an output in the way)
    exits with 2 like click's own usage errors; a file of the user's that a
    command refuses to replace says how to (``--force``).  Any other error
    (bad input, no space) exits with 1.
    """
    message = f"{error}; pass --force to replace it" if isinstance(error, OutputExists) else str(error)
    return BadInput(message) if isinstance(error, UsageError) else click.ClickException(message)


def _show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """Print the version and exit; only then is it looked up, which costs ~30 ms of imports."""
    if value and not ctx.resilient_parsing:
        from pipeline import __version__

        click.echo(f"pokerpipe, version {__version__}")
        ctx.exit()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version,
              help="Show the version and exit.")
def cli() -> None:
    """Decide poker winners at archive scale: Larvis and Texas Hold'em."""


class _Progress:
    """A one-line progress report on stderr, at most a few times a second.

    The run reports its progress from the thread that writes its outputs,
    and the main thread clears the line before it says anything else (a
    reject, an error, a stop): one lock keeps the two from interleaving,
    and once :meth:`close` is called with ``final`` no line is shown again.
    """

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.started = time.monotonic()
        self.shown = 0.0
        self.width = 0  # of the line shown last
        self._lock = threading.Lock()

    def __call__(self, rows: int, rate: float) -> None:
        self.show(f"{rows:,} rows  {rate:,.0f} rows/s")

    def runouts(self, done: int, total: int) -> None:
        """Run-outs scored so far of one deal's equity, once the work has taken a second."""
        rate = done / max(time.monotonic() - self.started, 1e-9)
        self.show(f"{done:,} of {total:,} run-outs  {rate:,.0f} run-outs/s", after=1.0)

    def show(self, line: str, *, after: float = 0.0) -> None:
        """Write ``line`` over the last one, once ``after`` seconds have passed since the start."""
        with self._lock:
            now = time.monotonic()
            if self.enabled and now - self.started >= after and now - self.shown >= 0.25:
                # Padded to the last line's width: a shorter line leaves none of it behind.
                text = f"{line:<{self.width}}"
                self.shown, self.width = now, len(text)
                click.echo(f"\r{text}", err=True, nl=False)

    def close(self, *, final: bool = False) -> None:
        """Clear the progress line, so that what is said next (a reject, the closing line, a stop
        or an error) starts a line of its own and no figure of the progress is left beside it;
        ``final``: and show none again."""
        with self._lock:
            if final:
                self.enabled = False
            if self.shown:
                click.echo("\r" + " " * self.width + "\r", err=True, nl=False)
                self.shown = 0.0
                self.width = 0


class _Report:
    """What a run says on stderr as it goes: progress, and the first rejected rows, then a count
    of the others by reason."""

    def __init__(self, *, quiet: bool) -> None:
        self.quiet = quiet
        self.progress = _Progress(enabled=not quiet and sys.stderr.isatty())
        self.rejected = 0  # a count, not the lines: an archive may hold millions of bad rows
        self.notices = 0
        self.unshown: Counter[str] = Counter()  # the reasons of the rejected rows not shown

    def reject(self, line: str, reason: str) -> None:
        self.rejected += 1
        if self.quiet:
            return
        if self.rejected <= MAX_REJECT_LINES:
            self.progress.close()
            click.echo(escaped(line), err=True)  # a path may hold a line break: one line all the same
        else:
            kind = reason_kind(reason)
            if kind in self.unshown or len(self.unshown) < MAX_REASONS_COUNTED:
                self.unshown[kind] += 1

    def notice(self, line: str) -> None:
        """An input passed over (skipped, read once, a loop): said even with -q, since it is data
        not read; the first ones, then a count (summary.json lists them all)."""
        self.notices += 1
        if self.notices <= MAX_REJECT_LINES:
            self.progress.close()
            click.echo(escaped(line), err=True)

    def close(self, outdir: str, summary: dict[str, Any]) -> None:
        """End the report: how many rejected rows were not shown, then the rows read, scored,
        set apart and rejected, from the run's summary."""
        self.progress.close()
        if self.notices > MAX_REJECT_LINES:
            click.echo(f"... and {self.notices - MAX_REJECT_LINES:,} more inputs passed over, listed in "
                       f"{escaped(outdir)}/summary.json (skipped_inputs)", err=True)
        if self.quiet:
            return
        if self.rejected > MAX_REJECT_LINES:
            click.echo(f"... and {self.rejected - MAX_REJECT_LINES:,} more rejected rows in "
                       f"{escaped(outdir)}/rejects.csv: {self.reasons()}", err=True)
        click.echo(closing_line(outdir, summary), err=True)

    def reasons(self) -> str:
        """The rejected rows not shown, counted by reason, the commonest first."""
        shown_reasons = self.unshown.most_common(REASONS_SHOWN)
        listed_reasons = [f"{count:,} {shown(reason, REASON_WIDTH, quote=False)}"
                          for reason, count in shown_reasons]
        others = self.rejected - MAX_REJECT_LINES - sum(count for _, count in shown_reasons)
        if others:
            listed_reasons.append(f"{others:,} for other reasons")
        return "; ".join(listed_reasons)


def reason_kind(reason: str) -> str:
    """What a reject's reason says of every row like it: its last clause, without the field or
    hand it names first.

    >>> reason_kind("hand 27: variant 'F7S' is not a game pokerpipe scores (NT, FT, NS, PO or FO/8)")
    "variant 'F7S' is not a game pokerpipe scores (NT, FT, NS, PO or FO/8)"
    >>> reason_kind("p1 'Ah 2d': card Ah is dealt twice"), reason_kind("7 fields, expected 6")
    ('card Ah is dealt twice', '7 fields, expected 6')
    """
    return reason.rsplit(": ", 1)[-1]


def closing_line(outdir: str, summary: dict[str, Any]) -> str:
    """The last line of a run: every count of the row accounting and, where the inputs hold
    expected results (a games file's Winner column, hand histories' records), the audit.

    >>> closing_line("out", {"rows_read": 3, "rows_scored": 2, "rows_rejected": 1, "expected": None})
    '3 rows read: 2 scored, 1 rejected -> out'
    """
    from pipeline.formats.histories import SET_APART

    apart = "".join(f"{summary[f'rows_{name}']:,} {name.replace('_', ' ')}, " for name in SET_APART
                    if f"rows_{name}" in summary)
    line = (f"{summary['rows_read']:,} rows read: {summary['rows_scored']:,} scored, {apart}"
            f"{summary['rows_rejected']:,} rejected -> {escaped(outdir)}")
    expected = summary.get("expected")
    if expected:
        line += f"; {expected['checked']:,} checked, {expected['mismatched']:,} mismatched"
    return line


def _keep_options(command: Any) -> Any:
    """``--keep`` and ``--keep-all``, the same on every command that reads deal archives."""
    command = click.option("--keep-all", is_flag=True,
                           help="Carry every column of the CSV and Parquet inputs that no game "
                                "reads.")(command)
    return click.option("--keep", "keep", multiple=True, metavar="COLUMN",
                        help="Carry this column of the CSV and Parquet inputs into the results, row for "
                             "row (CSV as text, Parquet in its own type; empty for inputs without it). "
                             "Repeatable.")(command)


class TooManyRejects(click.ClickException):
    """More rows rejected than ``--max-rejects`` allows (or, with ``--strict``, any rejected row or
    skipped input): the outputs are published all the same, and the status says so."""

    exit_code = TOO_MANY_REJECTS


def _reject_options(command: Any) -> Any:
    """``--max-rejects`` and ``--strict``, the same on every command that rejects rows."""
    command = click.option("--strict", is_flag=True,
                           help=f"Exit with status {TOO_MANY_REJECTS} if any row is rejected or any input "
                                f"skipped (--max-rejects 0, skipped inputs counted too).")(command)
    return click.option("--max-rejects", type=click.IntRange(min=0), default=None, metavar="N",
                        help=f"Exit with status {TOO_MANY_REJECTS} when more than N rows are rejected; "
                             f"the outputs are written all the same.  Default: no limit.")(command)


def _reject_limit(max_rejects: int | None, strict: bool) -> int | None:
    """The most rejected rows a run may have before it exits with status 3; None for no limit."""
    if strict and max_rejects is not None:
        raise click.UsageError("give --strict or --max-rejects, not both (--strict is --max-rejects 0, "
                               "skipped inputs counted too)")
    return 0 if strict else max_rejects


def _check_rejects(summary: dict[str, Any], outdir: str, limit: int | None, *, strict: bool) -> None:
    """Raise :class:`TooManyRejects` when the run's rejected rows (and, ``strict``, its skipped
    inputs) pass ``limit``."""
    if limit is None:
        return
    rejected, skipped = summary["rows_rejected"], len(summary.get("skipped_inputs", ()))
    problems = []
    if rejected > limit:
        problems.append(f"{rejected:,} row{'s' * (rejected > 1)} rejected, more than the {limit:,} allowed "
                        f"(see {escaped(outdir)}/{summary['outputs']['rejects']})")
    if strict and skipped:
        problems.append(f"{skipped:,} input{'s' * (skipped > 1)} skipped (summary.json skipped_inputs)")
    if problems:
        raise TooManyRejects("; ".join(problems) + "; the outputs are written")


@cli.command()
@click.argument("inputs", nargs=-1, required=True)
@click.option("-o", "--output", "outdir", required=True,
              type=click.Path(file_okay=False, writable=True),
              help="Folder for winners, rejects.csv, summary.json and the statistics.")
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="csv",
              show_default=True, help="Format of the winners table.")
@click.option("--game", type=_GameName(), default=None,
              help=f"Game of the inputs: {', '.join(registry.names())}.  Detected from their columns "
                   "(and Omaha from its cards) when omitted.")
@click.option("--batch-rows", type=click.IntRange(min=1), default=DEFAULT_BATCH_ROWS,
              show_default=True, help="Rows scored at a time; bounds memory.")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="Cores of the local engine (default: the cores this process may use): scoring "
                   "threads, or, on a folder of hand-history files, as many worker processes reading "
                   "whole files, each hand table then a folder of parts.  1: one thread doing "
                   "everything in turn, but for reading a .phhs archive's next part ahead.  The rows "
                   "written do not depend on it.")
@click.option("--engine", type=click.Choice(ENGINES), default="local", show_default=True,
              help="local: this process.  dask: partitions on a dask cluster, winners as "
                   "OUTDIR/winners/part-*.  To install dask: pip install 'dask[distributed]'")
@click.option("--scheduler", metavar="ADDRESS",
              help="Dask scheduler to use, like tcp://host:8786 (with --engine dask); "
                   "a local cluster when omitted.")
@click.option("--connect-timeout", type=click.FloatRange(min=0, min_open=True), default=10.0,
              show_default=True, metavar="SECONDS",
              help="With --scheduler: seconds for the address to answer as a dask scheduler, "
                   "then for it to have a worker.")
@click.option("--best-five", is_flag=True,
              help="Add each hand's best five cards (pN_best) and its description (pN_hand).")
@_keep_options
@_reject_options
@click.option("-q", "--quiet", is_flag=True,
              help="No progress line, reject lines or closing line on stderr (inputs passed over are "
                   "still named).")
def run(inputs: tuple[str, ...], outdir: str, output_format: str, game: str | None,
        batch_rows: int, threads: int | None, engine: str, scheduler: str | None, connect_timeout: float,
        best_five: bool, keep: tuple[str, ...], keep_all: bool, max_rejects: int | None, strict: bool,
        quiet: bool) -> None:
    """Score games files, contest files, deal archives or hand histories into OUTDIR.

    INPUTS are CSV (also .gz, .bz2, .zst), Parquet, contest, PHH (.phh,
    .phhs) or poker sites' hand-history logs (.txt, also in .zip archives)
    files, folders or glob patterns.  Example:

    \b
        pokerpipe run data/raw/games.csv -o data/processed/games
    """
    from pipeline.runs.runner import LocalEngine, Run

    if scheduler and engine != "dask":
        raise click.UsageError("--scheduler needs --engine dask")
    if engine == "dask":
        from pipeline.runs import cluster

        try:
            cluster.require_dask()
        except ImportError as error:
            raise click.ClickException(str(error)) from None
        if scheduler is not None:
            try:
                cluster.check_address(scheduler)
            except PokerpipeError as error:  # before any input is read
                raise click.BadParameter(str(error), param_hint="'--scheduler'") from None

    limit = _reject_limit(max_rejects, strict)
    report = _Report(quiet=quiet)
    try:
        configured = Run(list(inputs), outdir, output_format=output_format, game=game,
                         best_five=best_five, keep=keep, keep_all=keep_all, batch_rows=batch_rows,
                         threads=threads,
                         on_progress=report.progress, on_reject=report.reject,
                         on_notice=report.notice)
        summary = configured.execute(LocalEngine(threads=configured.threads) if engine == "local"
                                     else cluster.DaskEngine(scheduler=scheduler,
                                                             connect_timeout=connect_timeout))
    except PokerpipeError as error:
        raise _one_line(error) from None
    finally:  # an error, a stop signal: what is said next starts a line of its own
        report.progress.close(final=True)
    report.close(outdir, summary)
    _check_rejects(summary, outdir, limit, strict=strict)  # status 3 wins over a mismatch's 1
    expected = summary["expected"]
    if expected and expected["mismatched"]:
        first = expected["first"][0]
        raise click.ClickException(
            f"{expected['mismatched']:,} of {expected['checked']:,} rows disagree with the "
            f"{expected['column']} column (first: row {first['row']}, "
            f"expected {shown(first['expected'])}, got {first['got']!r}); "
            f"see {escaped(outdir)}/{summary['outputs']['winners']}")


@cli.command()
@click.argument("inputs", nargs=-1)
@click.option("-o", "--output", "outdir", type=click.Path(file_okay=False, writable=True),
              help="Folder for equity.<format>, rejects.csv and summary.json.")
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="csv",
              show_default=True, help="Format of the equity table.")
@click.option("--hand", "hands", multiple=True, metavar="CARDS",
              help="One deal instead of INPUTS: a hand like AhAs, once per player.")
@click.option("--board", default="", metavar="CARDS",
              help="With --hand: the board so far, 0, 3, 4 or 5 cards.")
@click.option("--samples", type=click.IntRange(min=2), default=20_000, show_default=True,
              help="Random run-outs per preflop deal.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Same seed, same numbers.")
@click.option("--exact", is_flag=True, help="Enumerate preflop run-outs too (1,712,304 heads-up).")
@click.option("--game", type=_GameName(), default=None,
              help="A game with a board: holdem, omaha, omaha-hilo, shortdeck, shortdeck-trips.  "
                   "Told from the cards (two a seat hold'em, four to six Omaha) when omitted.")
@click.option("--batch-rows", type=click.IntRange(min=1), default=DEFAULT_BATCH_ROWS,
              show_default=True, help="Rows read at a time; bounds memory.")
@_keep_options
@_reject_options
@click.option("-q", "--quiet", is_flag=True,
              help="No progress line, reject lines or closing line on stderr (inputs passed over are "
                   "still named).")
def equity(inputs: tuple[str, ...], outdir: str | None, output_format: str, hands: tuple[str, ...],
           board: str, samples: int, seed: int, exact: bool, game: str | None, batch_rows: int,
           keep: tuple[str, ...],
           keep_all: bool, max_rejects: int | None, strict: bool, quiet: bool) -> None:
    """Each seat's share of the pot over every run-out of unfinished boards.

    INPUTS are deal archives as for `run` (a board of 0, 3, 4 or 5 cards), of
    hold'em, Omaha, Omaha hi-lo (the pot shared by its halves) or short-deck.
    Example:

    \b
        pokerpipe equity deals.parquet -o out
        pokerpipe equity --hand AhAs --hand KdKc --board "Qs Jh 2c"
        pokerpipe equity --game omaha-hilo --hand "As 2s 3d Kh" --hand "Kd Kc Qh Jh" --board "4c 5h 9d"
    """
    from pipeline.runs import equity as equities

    if samples > equities.MAX_SAMPLES:
        raise click.BadParameter(f"{samples:,} is more than {equities.MAX_SAMPLES:,}, the most whose "
                                 f"sums stay exact", param_hint="'--samples'")
    if hands:
        if inputs or outdir:
            raise click.UsageError("give either INPUTS with -o OUTDIR or --hand (one deal), not both")
        progress = _Progress(enabled=not quiet and sys.stderr.isatty())
        try:
            result = equities.deal_equity(list(hands), board, samples=samples, seed=seed, exact=exact,
                                          on_progress=progress.runouts, game=game)
        except PokerpipeError as error:
            raise BadInput(str(error)) from None
        finally:
            progress.close(final=True)
        for seat, hand in enumerate(hands):
            spread = "" if result.exact[0] else f" ± {result.se[0, seat]:.4f}"
            click.echo(f"{notation.spaced_cards(hand)}  {result.equity[0, seat]:.4f}{spread}")
        how = "every run-out" if result.exact[0] else f"random run-outs, seed {seed}"
        click.echo(f"{int(result.runouts[0]):,} {how}", err=True)
        return
    if not inputs or not outdir:
        raise click.UsageError("give INPUTS and -o OUTDIR, or --hand for one deal")
    limit = _reject_limit(max_rejects, strict)
    report = _Report(quiet=quiet)
    try:
        summary = equities.EquityRun(list(inputs), outdir, output_format=output_format, samples=samples,
                                     seed=seed, exact=exact, batch_rows=batch_rows, keep=keep, game=game,
                                     keep_all=keep_all, on_progress=report.progress, on_reject=report.reject,
                                     on_notice=report.notice).execute()
    except PokerpipeError as error:
        raise _one_line(error) from None
    finally:
        report.progress.close(final=True)
    report.close(outdir, summary)
    _check_rejects(summary, outdir, limit, strict=strict)


@cli.command()
@click.argument("inputs", nargs=-1, required=True)
@click.option("-o", "--output", "outdir", required=True, type=click.Path(file_okay=False, writable=True),
              help="Folder for players.<format>, rejects.csv and summary.json.")
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="csv",
              show_default=True, help="Format of the players table.")
@click.option("--by", type=click.Choice(("position", "site", "stakes", "game")), multiple=True,
              help="One row per player and position, site, stakes (the blinds) or game; repeat to "
                   "combine.  Currencies, and cash against tournament chips, are always apart.")
@click.option("--player", "names", multiple=True, metavar="NAME", help="Only this player (repeatable).")
@click.option("--since", type=click.DateTime(["%Y-%m-%d"]), metavar="YYYY-MM-DD",
              help="Only hands played on or after this day (UTC); hands without a time are left out.")
@click.option("--until", type=click.DateTime(["%Y-%m-%d"]), metavar="YYYY-MM-DD",
              help="Only hands played on or before this day (UTC).")
@click.option("--min-hands", type=click.IntRange(min=0), default=0, show_default=True,
              help="Only the rows of at least this many hands.")
@click.option("--samples", type=click.IntRange(min=2), default=allin.DEFAULT_SAMPLES, show_default=True,
              help="Random run-outs of a preflop all-in, for its all-in EV.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Same seed, same all-in EVs.")
@click.option("--exact", is_flag=True, help="Enumerate a preflop all-in's run-outs (1,712,304 heads-up).")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="Threads parsing and counting (default: the cores this process may use).  The "
                   "rows written do not depend on it.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="With one --player: draw the player's running net, all-in EV and winnings with "
                   "and without showdown, hand after hand, to FILE (.png, .svg or .pdf).")
@click.option("--force", is_flag=True, help="Replace the --plot file if it exists.")
@click.option("--batch-rows", type=click.IntRange(min=1), default=DEFAULT_BATCH_ROWS,
              show_default=True, help="Hands read at a time; bounds memory.")
@click.option("-q", "--quiet", is_flag=True, help="No closing line on stderr.")
def players(inputs: tuple[str, ...], outdir: str, output_format: str, by: tuple[str, ...],
            names: tuple[str, ...], since: Any, until: Any, min_hands: int, samples: int, seed: int,
            exact: bool, threads: int | None, plot_path: str | None, force: bool, batch_rows: int,
            quiet: bool) -> None:
    """Each player's VPIP, PFR, 3-bet, AF, WTSD, c-bet, steal... results and all-in EV.

    INPUTS are hand histories as for `run`, or the output folders of runs
    over them.  Example:

    \b
        pokerpipe players data/raw/phh/pluribus -o out --by position
    """
    from pipeline.runs.players import Filters, player_statistics

    filters = Filters(players=names, since=since.date() if since else None,
                      until=until.date() if until else None)
    try:
        summary = player_statistics(list(inputs), outdir, output_format=output_format, by=by,
                                    filters=filters, min_hands=min_hands, batch_rows=batch_rows,
                                    samples=samples, seed=seed, exact=exact, threads=threads,
                                    plot=plot_path, replace_plot=force)
    except PokerpipeError as error:
        raise _one_line(error) from None
    if not quiet:
        click.echo(f"{summary['hands_read']:,} hands read: {summary['hands_used']:,} used, "
                   f"{summary['hands_set_apart']:,} set apart, {summary['hands_rejected']:,} rejected; "
                   f"{summary['players']:,} rows -> {escaped(outdir)}/{summary['outputs']['players']}",
                   err=True)


@cli.command()
@click.argument("hands", nargs=-1)
@click.option("--hand1", help="The first hand, like AAAQQ (the original tool's flag).")
@click.option("--hand2", help="The second hand, like QQAAA.")
def compare(hands: tuple[str, ...], hand1: str | None, hand2: str | None) -> None:
    """Decide one Larvis game: print Hand 1, Hand 2 or Tie.

    \b
    Example:
        pokerpipe compare AAAQQ QQAAA
        pokerpipe compare --hand1 AAAQQ --hand2 QQAAA
    """
    given = list(hands)
    hand1 = hand1 if hand1 is not None else (given.pop(0) if given else None)
    hand2 = hand2 if hand2 is not None else (given.pop(0) if given else None)
    if hand1 is None or hand2 is None or given:
        raise click.UsageError("give two hands: pokerpipe compare HAND1 HAND2 "
                               "(or --hand1 HAND1 --hand2 HAND2)")
    try:
        click.echo(larvis.compare(hand1, hand2))
    except PokerpipeError as error:
        raise BadInput(str(error)) from None


@cli.command()
@click.argument("file", required=False, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--batch-rows", type=click.IntRange(min=1), default=DEFAULT_BATCH_ROWS,
              show_default=True, help="Instances scored at a time.")
def contest(file: str | None, batch_rows: int) -> None:
    """Solve a Rhinoceros Beetle contest file: winners of each instance.

    Reads standard input without FILE.

    \b
    Example:
        pokerpipe contest data/raw/contest.in
    """
    name = "<stdin>" if file in (None, "-") else file
    stream = click.open_file(file or "-", encoding="utf-8", errors="replace")
    with stream:
        batches = contest_files.contest_batches(contest_files.text_lines(stream, name=name),
                                                batch_rows=batch_rows, name=name)
        try:
            for batch in batches:
                printed, problem = holdem.contest_winners(batch.table, batch.rows, batch.lines, name=name)
                if printed:
                    sys.stdout.write("\n".join(printed) + "\n")
                if problem:
                    raise InputError(problem)
        except PokerpipeError as error:
            sys.stdout.flush()
            raise _one_line(error) from None


@cli.command()
@click.option("--game", type=_GameName(), required=True,
              help=f"Which game to deal: {', '.join(registry.names())}.")
@click.option("--rows", type=click.IntRange(min=0), required=True, help="Deals (or games) to write.")
@click.option("--players", type=click.IntRange(1, deals.MAX_PLAYERS), default=6, show_default=True,
              help="Players per deal of a board game (hold'em, Omaha, short-deck).")
@click.option("--hole-cards", type=click.IntRange(2, 6), default=None,
              help="Hole cards a seat, where the game deals several counts (Omaha: 4, 5 or 6; default 4).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Same seed, same file.")
@click.option("-o", "--output", "path", required=True, type=click.Path(dir_okay=False, writable=True),
              help="File to write: .csv (.gz, .bz2, .zst), .parquet, or .in for a contest file.")
@click.option("--force", is_flag=True, help="Replace the file if it exists (refused otherwise).")
def generate(game: str, rows: int, players: int, hole_cards: int | None, seed: int, path: str,
             force: bool) -> None:
    """Write a reproducible random archive dealt from a real deck.

    \b
    Example:
        pokerpipe generate --game holdem --rows 1000000 --seed 7 -o deals.parquet
        pokerpipe generate --game omaha --hole-cards 5 --rows 1000 -o plo5.csv
    """
    from pipeline.runs.generate import generate as write_archive

    try:
        written = write_archive(path, game=game, rows=rows, players=players, seed=seed, force=force,
                                hole_cards=hole_cards)
    except PokerpipeError as error:
        raise _one_line(error) from None
    click.echo(f"{written:,} {registry.get(game).row_noun} -> {path}", err=True)


@cli.command()
@click.argument("results", type=click.Path(exists=True, file_okay=False))
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False, writable=True),
              help="Also draw observed against exact shares to this file: .png, .svg or .pdf, "
                   "in a folder that exists.  Drawn with matplotlib: pip install matplotlib")
@click.option("--force", is_flag=True, help="Replace the --plot file if it exists (refused otherwise).")
@click.option("--json", "as_json", is_flag=True, help="Print the tables as JSON.")
def stats(results: str, plot_path: str | None, force: bool, as_json: bool) -> None:
    """Category frequencies of a run beside the exact reports.

    RESULTS is an output folder of `pokerpipe run`.  Example:

    \b
        pokerpipe stats data/processed/deals --plot categories.png
    """
    from pipeline.runs import report as reports

    try:
        if plot_path is not None:  # an empty name is refused, not taken for no plot
            reports.plot_format(plot_path, replace=force)  # before the report: a bad name says so at once
        report = reports.run_report(results)
    except PokerpipeError as error:
        raise _one_line(error) from None
    _print_report(report, as_json=as_json)
    if plot_path is None:
        return
    # Drawn after the tables are printed: a plot that cannot be made (matplotlib not installed,
    # nothing to plot, the file not written) leaves them printed, then says why in one line,
    # and the exit status is not 0 (the plot asked for is not there).
    try:
        reports.plot_fit({title: part.fit for title, part in report.items() if part.fit is not None},
                         plot_path, replace=force)
    except PokerpipeError as error:
        raise _one_line(error) from None
    except ImportError as error:  # the plot extra is not installed: the line names what to install
        raise click.ClickException(str(error)) from None


def _print_report(report: dict[str, Any], *, as_json: bool) -> None:
    """Print the tables of ``pokerpipe stats`` (:func:`pipeline.runs.report.run_report`), or their JSON."""
    from pipeline.runs import report as reports

    if as_json:
        click.echo(json.dumps({title: reports.report_json(part) for title, part in report.items()},
                              indent=2))
        return
    for title, part in report.items():
        click.echo(f"\n{title}")
        click.echo(part.table.to_string(index=False, float_format=lambda x: f"{x:.6f}"))
        fit = part.fit
        if part.note is not None:
            click.echo(part.note)
        if fit is not None and fit.not_applicable is not None:
            click.echo(f"chi-square: does not apply: {fit.not_applicable}")
        elif fit is not None and fit.testable:
            click.echo(f"chi-square {fit.chi2:.2f} on {fit.dof} degrees of freedom, p = {fit.p_value:.4g}")
        elif fit is not None:
            click.echo("chi-square: too few deals for a test (the expected counts fill fewer than two bins)")


#: Commands whose work never needs pandas (see :func:`_without_pandas`).
PANDAS_FREE = frozenset({"run", "contest", "compare", "generate"})


def _without_pandas(argv: list[str]) -> None:
    """Keep pandas out of a command that does not use it: 0.2 to 0.5 s of start-up.

    pyarrow imports pandas the first time it converts a numpy array, only to
    ask whether the array is a pandas object.  A finder that refuses the
    import makes pyarrow's check answer no at once.  Only for the console
    script, only for the commands in :data:`PANDAS_FREE`, and not with the
    dask engine (dask uses pandas).
    """
    if "pandas" in sys.modules or not argv or argv[0] not in PANDAS_FREE:
        return
    if any("dask" in argument for argument in argv):
        return
    sys.meta_path.insert(0, _NoPandas())


class _NoPandas:
    """An import finder under which pandas is not installed.

    A finder needs only ``find_spec``: not deriving from ``importlib.abc.MetaPathFinder`` saves
    importing that module (~8 ms) at every start.
    """

    def find_spec(self, name: str, path: object, target: object = None) -> None:
        if name.partition(".")[0] == "pandas":
            raise ModuleNotFoundError(f"No module named {name!r} (not needed by this command)", name=name)


def main() -> None:
    """Run the command line; :func:`pipeline.console.main`, the console script, calls it once its
    stop signals are handled."""
    _without_pandas(sys.argv[1:])
    fit_address_space()
    # The objects the imports made live until the process ends.  Frozen, the collector skips
    # them, and the interpreter's exit does not walk and free them one by one: 25-35 ms of
    # every command.
    gc.freeze()
    # The stop signals raise Stopped between read blocks.  pyarrow's own handler, set around each
    # read_csv call, would start a thread per call, and a thread that cannot start (short of
    # memory) aborts the process from C++ with no message.
    pa.enable_signal_handlers(False)
    stop_on_signals()  # already done by pipeline.console, but main may be called on its own
    try:
        with resource_limits():  # memory or threads running out outside a run's outputs, too
            cli()
    except Stopped as stopped:
        exit_stopped(stopped)
    except ResourceError as error:
        click.echo(f"Error: {error}", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
