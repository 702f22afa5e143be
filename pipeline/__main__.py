"""``python -m pipeline`` runs the ``pokerpipe`` command line."""

from pipeline.cli import main

main()
