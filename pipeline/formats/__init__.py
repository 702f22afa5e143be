"""Formats and I/O: every input format read into batches, every output written and published.

Layer 4 of the package.  Modules here import :mod:`pipeline.hands`,
:mod:`pipeline.games`, :mod:`pipeline.poker` and the foundation modules, never the runs or the
command line: :mod:`~pipeline.formats.sources` (what every reader shares)
at the bottom, a module or package per format (:mod:`~pipeline.formats.phh`;
CSV, Parquet and contest files in :mod:`~pipeline.formats.readers`, which
also finds and opens inputs), and the outputs
(:mod:`~pipeline.formats.publish`, :mod:`~pipeline.formats.writers`).
"""
