"""`python -m compiler ...`: the `rulecraft` command line, run from a checkout or an install."""

from compiler.cli import run

run()
