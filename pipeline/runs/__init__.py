"""Runs: the pipeline put together, read -> score -> write, on every core or a cluster.

Layer 5 of the package, under the command line.  Modules here import the
formats, the recorded hands, the games, pure evaluation and the foundation modules:
:mod:`~pipeline.runs.threads`, :mod:`~pipeline.runs.columns` (a results
table's fixed schema and kept columns) and :mod:`~pipeline.runs.runner` (the run, the
base it shares with equity, and the local engine), then :mod:`~pipeline.runs.cluster` (dask),
:mod:`~pipeline.runs.equity`, :mod:`~pipeline.runs.api` (the library face),
:mod:`~pipeline.runs.generate` and :mod:`~pipeline.runs.report`
(``pokerpipe stats``).
"""
