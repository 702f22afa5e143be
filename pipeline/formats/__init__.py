"""Formats and I/O: every input format read into batches, every output written and published.

Layer 4 of the package.  Modules here import :mod:`pipeline.hands`,
:mod:`pipeline.games`, :mod:`pipeline.poker` and the foundation modules, never the runs or the
command line: :mod:`~pipeline.formats.sources` (what every reader shares)
at the bottom, a module or package per format (:mod:`~pipeline.formats.csv_files`,
:mod:`~pipeline.formats.parquet_files`, :mod:`~pipeline.formats.contest_files`,
:mod:`~pipeline.formats.phh`, :mod:`~pipeline.formats.sites.pokerstars`) behind one
facade, :mod:`~pipeline.formats.readers`, which finds and opens inputs, tells
their formats apart and reads each through its module (table headers checked
by :mod:`~pipeline.formats.headers`), and the outputs
(:mod:`~pipeline.formats.publish`, :mod:`~pipeline.formats.writers`).
"""
