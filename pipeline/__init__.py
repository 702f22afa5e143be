"""pokerpipe: decide poker winners at archive scale.

Two games share one pipeline: Larvis (suitless five-card poker, two hands
head to head) and Texas Hold'em (1 to 10 players, best five of seven).
Readers load games files, contest files and deal archives; the scoring
modules (:mod:`pipeline.larvis`, :mod:`pipeline.holdem`) turn whole arrays of
hands into integer keys; writers output winners and statistics.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("pokerpipe")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"
