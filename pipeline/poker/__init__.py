"""Pure evaluation: cards, keys of every hand size, best five, descriptions, exact counts.

Layer 1 of the package, its bottom.  Modules here know poker, not files or
games as the pipeline runs them: they import numpy, pyarrow and the
foundation modules (:mod:`pipeline.errors`, :mod:`pipeline.text`), and of
this package only each other, in this order: :mod:`~pipeline.poker.cards`,
:mod:`~pipeline.poker.notation`, the keys (:mod:`~pipeline.poker.larvis`,
:mod:`~pipeline.poker.holdem`, then :mod:`~pipeline.poker.omaha` and
:mod:`~pipeline.poker.shortdeck` on hold'em's tables), then :mod:`~pipeline.poker.describe` and
:mod:`~pipeline.poker.exact`.
"""
