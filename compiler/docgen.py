"""Docs generation (placeholder until the Jinja2 rulebook template lands)."""

from __future__ import annotations

from compiler.model import GameModel


def generate_docs(model: GameModel) -> str:
    return f"# {model.title}\n"
