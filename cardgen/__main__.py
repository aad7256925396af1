"""`python -m cardgen` runs the `cardgen` command."""

from cardgen.cli import main

main()
