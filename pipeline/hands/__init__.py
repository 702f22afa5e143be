"""Recorded hands: the poker facts of a hand history, whatever format wrote it.

Layer 3 of the package, between the games (:mod:`pipeline.games`) and the
formats (:mod:`pipeline.formats`); imports the games, pure evaluation and the
foundation modules, never a format.  A format reads its text into these
facts; what follows from them (positions, and in time the replay of the
chips and the audit of the record) is worked out here once, for every
format.
"""
