"""``python -m murar`` is the ``murar`` command."""

from murar.cli.main import main

main()
