"""Games: the rules of each game behind one interface, above pure evaluation.

Layer 2 of the package.  Modules here import :mod:`pipeline.poker` and the
foundation modules (:mod:`pipeline.errors`, :mod:`pipeline.text`), never
formats, runs or the command line.  :mod:`~pipeline.games.tally` and
:mod:`~pipeline.games.base` (the interface) at the bottom with
:mod:`~pipeline.games.deals` (the deals every board game reads alike) and
:mod:`~pipeline.games.board` (what the board games score alike), one module per
game (:mod:`~pipeline.games.larvis`, :mod:`~pipeline.games.holdem`,
:mod:`~pipeline.games.omaha` with its hi-lo form, :mod:`~pipeline.games.shortdeck`
in both rankings), and the registry (:mod:`~pipeline.games.registry`) on top.
"""
