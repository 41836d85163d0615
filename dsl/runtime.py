"""The small runtime that generated game modules import (`from dsl import runtime as rt`);
its code moves to dsl.runtime_state and the modules split from it."""

from __future__ import annotations

from dsl.runtime_state import *  # noqa: F403
