"""`python -m compiler ...`: the `rulecraft` command line, run from a checkout or an install."""

import sys

from compiler.cli import main

sys.exit(main())
