"""Site logs read by their line patterns: what every site's reader shares but PokerStars' own.

Layer: formats and I/O (:mod:`pipeline.formats`); the package imports
:mod:`~pipeline.formats.scan`, :mod:`~pipeline.formats.sources`,
:mod:`~pipeline.formats.histories`, the hands' model and
:class:`~pipeline.hands.record.Record`, and the foundation modules, never the
runs or the command line.

A site's log is a sequence of hands, each a block of lines of a few dozen
kinds (a header, seat lines, posts and actions, streets, collections, a
summary).  A site here is one :class:`~pipeline.formats.logs.grammar.Grammar`
subclass, in its own module of :mod:`pipeline.formats.sites`: its
:class:`~pipeline.formats.logs.grammar.Rule`\\ s (one RE2 pattern per kind of
line, named groups for the fields), its verbs, its names of games and
streets.  What the sites share lives here, once:

* :mod:`~pipeline.formats.logs.lines`: a chunk's text cut into lines and hands,
  and every line classified by the first rule that matches it, a rule at a time
  over whole columns of lines (pyarrow's RE2 kernels, never a loop per line);
* :mod:`~pipeline.formats.logs.values`: amounts as any site writes them (a sign
  before or after, a code, thousands separators, a decimal comma), cards, times;
* :mod:`~pipeline.formats.logs.grammar`: the kinds of line, the rules, the
  grammar, and the :class:`~pipeline.hands.record.Record` of a chunk's hands
  read from its classified lines (names matched to the seated players, amounts
  to chips, streets to the actions);
* :mod:`~pipeline.formats.logs.reader`: a site's files told apart by their
  first line, read in chunks of whole hands, and the
  :class:`~pipeline.formats.sources.Site` a site module exports.
"""
