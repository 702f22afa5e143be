"""The ``pokerpipe`` console script: stop signals handled before the heavy imports, then :mod:`pipeline.cli`.

Layer: the command line, on top of every other; nothing of the package imports it.

This module owns the process's first moments.  Importing numpy, pyarrow and
click takes about a quarter of a second; a stop signal in that time would end
the process with a KeyboardInterrupt traceback through those imports
(Ctrl-C), or with no word at all (SIGTERM, SIGHUP).  Here the handlers come
first, with nothing heavy imported, so such a stop ends like any other: one
line and the status 128 + the signal.
"""

from __future__ import annotations

from pipeline.errors import Stopped, exit_stopped, stop_on_signals


def main() -> None:
    """Entry point of the ``pokerpipe`` console script and of ``python -m pipeline``."""
    stop_on_signals()
    try:
        from pipeline.cli import main as command_line  # the heavy imports, under the handlers

        command_line()
    except Stopped as stopped:  # before the command line took over its signals
        exit_stopped(stopped)
