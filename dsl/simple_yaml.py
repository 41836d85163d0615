"""The simple YAML of card sets that dsl.fastcards reads: one line at a time, by regular
expression (a value written over several lines, or a block list of scalars under its key, is
taken with its key's line), and the values of its scalars (quoted ones unescaped, lines folded
as libyaml does). Anything else raises Unsupported, and the file is read with PyYAML.
"""

from __future__ import annotations

import re


class Unsupported(Exception):  # noqa: N818 - a signal, not an error: read the file with PyYAML
    """The text is outside the shape this reader fully understands."""


# Characters YAML does not allow in a file (control characters, surrogates, U+FFFE/U+FFFF),
# and those that libyaml takes as line breaks or as a byte order mark but SourceFile does not
# (CR, NEL, U+2028, U+2029, U+FEFF), and the tab (indentation rules of its own): a file holding
# one is read by PyYAML. Those below U+0100 are in no class below, so no pattern matches them;
# a file holding one of the others is refused whole first (refuse_wide_bad). The classes stay
# within U+00FF because a class that names wider characters is compiled through a table of all
# 65,536: the patterns here took 25 ms to compile, on every check of a card set, and take 3 ms.
_BAD = "\\x00-\\x1f\\x7f-\\x9f"
_WIDE_BAD = "\u2028\u2029\ufeff\ufffe\uffff"  # and the surrogates, U+D800 to U+DFFF


def refuse_wide_bad(text: str) -> None:
    """Unsupported when text holds one of the refused characters above U+00FF, which the
    patterns here do not exclude themselves."""
    if text.isascii():
        return
    if any(character in text for character in _WIDE_BAD):
        raise Unsupported
    try:
        text.encode("utf-8")  # (a lone surrogate cannot be encoded)
    except UnicodeEncodeError:
        raise Unsupported from None


_C = f"[^{_BAD}]"  # any other character but a newline (which is \x0a)
_PLAIN = (
    # starts with no indicator (a '-' followed by a non-space is a plain '-3' or '-x')...
    f"(?:[^-?:,\\[\\]{{}}#&*!|>'\"%@` {_BAD}]|-(?=[^ {_BAD}]))"
    # ...then no ': ' or ' #', no ':' at the end and no trailing spaces
    f"(?:[^ :{_BAD}]++|:(?=[^ {_BAD}])|[ ]++(?=[^ #{_BAD}]))*+"
)
# A plain scalar's further lines (as yaml.safe_dump folds long texts): after empty lines maybe,
# more indented than its key's line (fold_plain checks how much), no comment.
_MORE_PLAIN = (
    f"(?:\\n(?:[ ]*\\n)*(?P=ind)[ ]+(?:[^ :#{_BAD}]|:(?=[^ {_BAD}]))"
    f"(?:[^ :{_BAD}]++|:(?=[^ {_BAD}])|[ ]++(?=[^ #{_BAD}]))*+)*"
)
# The same for an item of a block list, whose further lines do not start with '- ' (an item's
# place: sequence() checks the indentation, and what does not match here is read by PyYAML).
_MORE_ITEM = (
    f"(?:\\n(?:[ ]*\\n)*[ ]+(?:[^- :#{_BAD}]|[-:](?=[^ {_BAD}]))"
    f"(?:[^ :{_BAD}]++|:(?=[^ {_BAD}])|[ ]++(?=[^ #{_BAD}]))*+)*"
)
# Quoted scalars may go on over lines that start with a space or are empty (never at the
# first column, where '---' or '...' would end the document).
_SINGLE = f"'(?:[^'{_BAD}]|''|\\n(?=[ \\n]))*+'"
_DOUBLE = f'"(?:[^"\\\\{_BAD}]|\\\\[^{_BAD}]|\\\\?\\n(?=[ \\n]))*+"'
_SINGLE_LINE = f"'(?:[^'{_BAD}]|'')*'"
_DOUBLE_LINE = f'"(?:[^"\\\\{_BAD}]|\\\\[^{_BAD}])*"'
# One line of a card set (or, for a block scalar, its lines): a key and its value, or a blank
# line or a comment, or `other` (empty): anything else, which is not read here. Every line
# start matches, so consecutive matches cover the text.
_TAIL = f"(?:[ ]+(?:\\#{_C}*)?)?\\n"  # spaces, a comment, the line break
LINE = re.compile(
    f"""(?:
        # a key, and the spaces after its colon
        (?P<head>(?P<ind>[ ]*)(?P<dash>-[ ]+)?(?P<key>[A-Za-z_][A-Za-z0-9_]*):[ ]*)
        (?:
            # a value, after one space at least
            (?<=[ ])(?:(?P<plain>{_PLAIN}{_MORE_PLAIN}) | (?P<single>{_SINGLE})
              | (?P<double>{_DOUBLE})
              | (?P<flow>\\[[^\\[\\]{{}}{_BAD}]*\\]) ){_TAIL}
          | (?<=[ ])(?P<block>[|>][-+]?){_TAIL}
            # the block's lines: more indented than the key's line, or empty; not a line
            # of spaces after them (libyaml would take it into the block)
            (?P<body>(?:(?P=ind)[ ]{_C}*\\n|\\n)*+)(?![ ]+\\n)
          | (?:(?<=[ ])\\#{_C}*)?\\n  # no value, or a block list of scalars on the next lines
            (?P<seq>(?:[ ]*-[ ]+(?:{_PLAIN}{_MORE_ITEM}|{_SINGLE}|{_DOUBLE}){_TAIL})*)
        )
      | [ ]*(?:\\#{_C}*)?\\n  # a blank line or a comment
      | (?P<other>)  # anything else
    )""",
    re.VERBOSE,
)
FLOW_ITEM = re.compile(
    f"[ ]*(?:(?P<plain>(?:[A-Za-z0-9_]|[-+.][A-Za-z0-9_.])[A-Za-z0-9_.+-]*"
    f"(?:[ ]+[A-Za-z0-9_][A-Za-z0-9_.+-]*)*)|(?P<single>{_SINGLE_LINE})"
    f"|(?P<double>{_DOUBLE_LINE}))[ ]*(?P<comma>,?)"
)
# An item of LINE's `seq`: its indentation, and its value at dash + spaces.
SEQ_ITEM = re.compile(
    f"(?P<ind>[ ]*)(?P<dash>-[ ]+)(?:(?P<plain>{_PLAIN}{_MORE_ITEM})|(?P<single>{_SINGLE})"
    f"|(?P<double>{_DOUBLE})){_TAIL}"
)
# Blank lines and comments, then the indentation of the next line: where the next token is.
NEXT_TOKEN = re.compile(f"(?:[ ]*(?:#{_C}*)?\\n)*([ ]*)")
# A flow list of words, the common case: read without a regular expression for each item.
WORDS = re.compile("[A-Za-z_][A-Za-z0-9_]*(?:, [A-Za-z_][A-Za-z0-9_]*)*")
_ESCAPE = re.compile(f"\\\\(?:x[0-9A-Fa-f]{{2}}|u[0-9A-Fa-f]{{4}}|U[0-9A-Fa-f]{{8}}|{_C})")
_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r",
    "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0",
    "L": "\u2028", "P": "\u2029",
}


def _unescape(match: re.Match[str]) -> str:
    escape = match.group()
    if len(escape) > 2:
        code = int(escape[2:], 16)
        if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
            raise Unsupported  # libyaml refuses these, Python's loader would not
        return chr(code)
    replacement = _ESCAPES.get(escape[1])
    if replacement is None:
        raise Unsupported
    return replacement


def unquote_double(quoted: str) -> str:
    """A double-quoted scalar's value (Unsupported for an escape libyaml refuses)."""
    inner = quoted[1:-1]
    if "\n" in inner:
        return _fold_quoted(inner, True)
    return _ESCAPE.sub(_unescape, inner) if "\\" in inner else inner


def unquote_single(quoted: str) -> str:
    """A single-quoted scalar's value."""
    inner = quoted[1:-1]
    if "\n" in inner:
        return _fold_quoted(inner, False)
    return inner.replace("''", "'")


def _odd_backslashes(text: str) -> bool:
    """Whether text ends with an escape's backslash (not an escaped one)."""
    return (len(text) - len(text.rstrip("\\"))) % 2 == 1


def _fold_quoted(inner: str, double: bool) -> str:
    """The value of a quoted scalar written on several lines, as libyaml reads it
    (yaml_parser_scan_flow_scalar): spaces around a line break go; the break becomes a space,
    or the breaks of the empty lines after it; an escaped break (double quotes) joins its line
    to the next with nothing, or with the breaks of the empty lines after it."""
    lines = inner.split("\n")
    last = len(lines) - 1
    out: list[str] = []
    breaks = 0
    join = ""  # how the previous line ended: "" (the first line), "fold" or "escape"
    for index, line in enumerate(lines):
        if index:
            line = line.lstrip(" ")
        ends = ""
        if index < last:
            if double and _odd_backslashes(line):
                line, ends = line[:-1], "escape"
            else:
                stripped = line.rstrip(" ")
                if double and stripped != line and _odd_backslashes(stripped):
                    stripped += " "  # an escaped space is text
                line, ends = stripped, "fold"
                if index and not line:
                    breaks += 1
                    continue
        if join == "fold":
            out.append("\n" * breaks if breaks else " ")
        elif join == "escape":
            out.append("\n" * breaks)
        breaks = 0
        if double:
            out.append(_ESCAPE.sub(_unescape, line) if "\\" in line else line)
        else:
            out.append(line.replace("''", "'"))
        join = ends
    return "".join(out)


def fold_plain(raw: str, column: int) -> str:
    """The value of a plain scalar written on several lines (LINE's `plain` holding line
    breaks): its lines joined by a space, or by the breaks of the empty lines between them.
    Unsupported when a line does not start right of the key's column, where libyaml ends the
    scalar (yaml_parser_scan_plain_scalar)."""
    lines = raw.split("\n")
    out = [lines[0]]
    breaks = 0
    for line in lines[1:]:
        stripped = line.lstrip(" ")
        if not stripped:
            breaks += 1
            continue
        if len(line) - len(stripped) <= column:
            raise Unsupported
        out.append("\n" * breaks if breaks else " ")
        out.append(stripped)
        breaks = 0
    return "".join(out)


def _literal(block: str, lead: int, indent: int, chomp: str) -> str:
    """A literal block scalar's value; block from its first line to its last, no final break."""
    text = block[indent:].replace("\n" + " " * indent, "\n")
    tail = "" if chomp == "-" else "\n"
    return "\n" * lead + text + tail


def _folded(lines: list[str], lead: int, chomp: str) -> str:
    """A folded block scalar's value, folding as libyaml does (yaml_parser_scan_block_scalar);
    lines from its first to its last that is not empty, without their indentation."""
    out: list[str] = []
    leading_break = ""
    breaks = "\n" * lead
    leading_blank = False
    for line in lines:
        if not line:
            breaks += "\n"
            continue
        trailing_blank = line[0] == " "
        if leading_break == "\n" and not leading_blank and not trailing_blank:
            if not breaks:
                out.append(" ")
        else:
            out.append(leading_break)
        leading_break = ""
        out.append(breaks)
        breaks = ""
        leading_blank = trailing_blank
        out.append(line)
        leading_break = "\n"
    if chomp != "-":
        out.append(leading_break)
    return "".join(out)


def block_scalar(indicator: str, body: str, column: int) -> tuple[str, int, int]:
    """A block scalar's value, its number of lines after the indicator's, and its
    indentation (-1 when its first line starts with a character str.strip() strips)."""
    if indicator == "|" and body.find("\n") == len(body) - 1:
        # one line and no empty ones, the common case ('effect: |' and one statement)
        indent = len(body) - len(body.lstrip(" "))
        if indent <= column or body[indent] == "\n":
            raise Unsupported  # (a line of spaces: libyaml counts it as empty)
        return body[indent:], 1, -1 if body[indent].isspace() else indent
    lines = body.count("\n")
    stripped = body.rstrip("\n")
    lead = len(stripped)
    stripped = stripped.lstrip("\n")
    lead -= len(stripped)
    indent = len(stripped) - len(stripped.lstrip(" "))
    if indent <= column or stripped[indent:indent + 1] in ("", "\n"):
        # no text, or the block is not inside its key's mapping, or its first line is only
        # spaces (libyaml counts it as empty, and takes the indentation from the next)
        raise Unsupported
    pieces = stripped.split("\n")
    prefix = " " * indent
    if any(piece and not piece.startswith(prefix) for piece in pieces):
        raise Unsupported  # a line less indented than the first, which ends the block
    chomp = indicator[1:]
    if indicator[0] == "|":
        value = _literal(stripped, lead, indent, chomp)
    else:
        value = _folded([piece[indent:] for piece in pieces], lead, chomp)
    if chomp == "+":
        value += "\n" * (len(body) - len(stripped) - lead - 1)
    return value, lines, -1 if stripped[indent].isspace() else indent
