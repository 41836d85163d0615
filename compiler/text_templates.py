"""Text templates: the `says` text of an action and the messages of its `require`s and deck rules
(docs/language.md, "Text templates"). Every `{...}` in them is a field that names a value; the
checker (E0210) and the Python generator find the fields the same way, here.
"""

from __future__ import annotations

import re

TEMPLATE_FIELD = re.compile(r"\{([^{}]*)\}")


def template_fields(text: str) -> list[tuple[int, int, str]]:
    """The fields of a text template, in order: (start, end, name) of each `{name}`."""
    return [(match.start(), match.end(), match.group(1)) for match in TEMPLATE_FIELD.finditer(text)]


def words(name: str) -> str:
    """An identifier read as words in texts: "siege_tower" is "siege tower"."""
    return name.replace("_", " ")
