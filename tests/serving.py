"""Helpers of the `rulecraft serve` tests: a game's session and app, and which card names a
seat may not read (tests/test_serve.py, tests/test_serve_browser.py)."""

from __future__ import annotations

import json
from typing import Any

from starlette.applications import Starlette

from compiler.api import load_game_model
from compiler.serve.app import make_app
from compiler.serve.catalogue import Catalogue
from compiler.serve.session import Session


def served(game: str, **kwargs: Any) -> tuple[Session, Starlette]:
    model, module = load_game_model(game)
    session = Session(module, game, **kwargs)
    return session, make_app(session, Catalogue(model))


def card_names(observation: dict[str, Any]) -> set[str]:
    """Every card name an observation shows, in its zones (revealed ones too)."""
    names: set[str] = set()
    for content in observation["zones"].values():
        if isinstance(content, list):
            names.update(str(c) for c in content)
        elif isinstance(content, dict):
            names.update(str(c) for c in content.get("revealed", []))
    return names


def secrets_of(session: Session, seat: int) -> set[str]:
    """The card names that the other seats see and `seat` does not: what its page must never
    hold. A name that seat's observation holds anywhere (its own copy of the card, a log
    line) is no secret."""
    state = session.state
    own = json.dumps(state.observation(seat), ensure_ascii=False)
    own += " ".join(m.texts[seat] for m in session.moves)
    others: set[str] = set()
    for other in range(len(session.names)):
        if other != seat:
            others |= card_names(state.observation(other))
    # short names ("1", "A") are also words of any page: only names of three or more letters
    return {name for name in others if len(name) >= 3 and name not in own}
