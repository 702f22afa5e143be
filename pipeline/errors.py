"""Errors: the exceptions pokerpipe raises for what a user can fix.

Layer: foundation; imports only :mod:`pipeline.text` (the same layer), and every layer may import it.

This module owns the line between an expected failure and a bug.  The
library raises :class:`PokerpipeError` subclasses with a message that names
the file, row or line and the reason; the command line prints exactly those
as one line and exits non-zero.  Any other exception is a bug and keeps its
traceback.

``InputError`` and ``UsageError`` are also ``ValueError`` so that code that
caught the library's ``ValueError`` keeps working.
"""

from __future__ import annotations

import os


class PokerpipeError(Exception):
    """Base of every error the command line reports as one line.

    Its text is one line whatever the message carries: a path or a value
    holding a line break or a control character is escaped
    (:func:`pipeline.text.escaped`), here once for every message.

    >>> str(InputError("new\\nline.csv: file is empty"))
    'new\\\\nline.csv: file is empty'
    """

    def __str__(self) -> str:
        # Imported here: pipeline.text loads pyarrow, and ``import pipeline`` (which imports
        # this module) stays cheap; by the time an error is shown, pyarrow is loaded anyway.
        from pipeline.text import escaped

        return escaped(super().__str__())


class InputError(PokerpipeError, ValueError):
    """An input cannot be read or scored: the message names the file, row or line and why."""


class UsageError(PokerpipeError, ValueError):
    """An argument or option that cannot work: an unknown game, a bad number, a folder in the way."""


class OutputError(PokerpipeError, OSError):
    """An output could not be written: the message names the path and the system's reason."""


def os_reason(error: OSError, path: str | os.PathLike[str] | None = None) -> OutputError:
    """One line for an OS error: the path and the system's reason.

    >>> str(os_reason(OSError(28, "No space left on device"), "out/winners.csv"))
    'out/winners.csv: No space left on device'
    """
    where = error.filename if error.filename is not None else path
    reason = error.strerror or str(error) or type(error).__name__
    return OutputError(f"{where}: {reason}" if where is not None else reason)
