"""``python -m pipeline`` runs the ``pokerpipe`` command line."""

from pipeline.console import main

main()
