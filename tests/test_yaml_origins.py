"""dsl.yaml_origins against libyaml: for random scalars of every style, the map of the value is
made (what it reads is what libyaml composed) and each character maps to where it is written.

The map is only used when it reads exactly the value, so a reading that drifts from libyaml
costs precise positions silently; these tests are what notices.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from dsl import cardset
from dsl.source import SourceFile, Span
from dsl.yaml_origins import Origins, Scalar, Shift, exact_shift, origins
from tests.tiers import seeds

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
WORDS = ["gain(you,", "1)", "x", "é", "日本", "😀", "a:b", "'", '"', "#x", "-", "{", "}", "[a]"]


def scalars(node: Node) -> Iterator[ScalarNode]:
    if isinstance(node, ScalarNode):
        yield node
    elif isinstance(node, SequenceNode):
        for item in node.value:
            yield from scalars(item)
    elif isinstance(node, MappingNode):
        for key, value in node.value:
            yield from scalars(key)
            yield from scalars(value)


def scalar_of(source: SourceFile, node: ScalarNode) -> Scalar:
    marks = cardset._Marks(source)
    line, column = marks.position(node.start_mark)
    return Scalar(node.style or "", marks.index(node.start_mark), marks.index(node.end_mark),
                  line, column)


def flow_text(rng: random.Random, style: str, indent: str) -> str:
    """A random scalar of a flow style (plain, quoted), lines indented by indent."""
    parts: list[str] = []
    breaks = ["\n", "\r\n"] + (["\x85", "\u2028", "\r"] if rng.random() < 0.2 else [])
    for _ in range(rng.randint(1, 8)):
        kind = rng.random()
        if kind < 0.5:
            word = rng.choice(WORDS)
            if style == "'":
                word = word.replace("'", "''")
            elif style == '"':
                word = word.replace("\\", "\\\\").replace('"', '\\"')
            parts.append(word)
        elif kind < 0.65:
            parts.append(rng.choice([" ", "  ", " \t", "\t"]))
        elif kind < 0.85:
            line_break = rng.choice(breaks)
            parts.append(rng.choice(["", " "]) + line_break * rng.randint(1, 3)
                         + indent + rng.choice(["", " ", "   "]))
        elif style == '"':
            parts.append(rng.choice(["\\t", "\\n", "\\\\", '\\"', "\\x41", "\\u00e9",
                                     "\\U0001F600", "\\ ", "\\/", "\\N", "\\_", "\\L", "\\\t",
                                     "\\\n" + indent + "  "]))
        else:
            parts.append(rng.choice(WORDS))
    body = "".join(parts)
    return f"{style}{body}{style}" if style else body.strip()


def block_text(rng: random.Random, indent: str) -> str:
    """A random block scalar: header, then lines at indent (some deeper, some empty)."""
    header = rng.choice(["|", ">"]) + rng.choice(["", "-", "+"])
    if rng.random() < 0.2:
        header += rng.choice(["1", "2", "3"])
    if rng.random() < 0.2:
        header += "  # a comment"
    line_break = rng.choice(["\n", "\n", "\r\n"])
    lines = []
    for _ in range(rng.randint(0, 7)):
        kind = rng.random()
        if kind < 0.2:
            lines.append(rng.choice(["", "  ", indent]))
        else:
            deeper = rng.choice(["", "", " ", "   ", "\t"]) if kind < 0.4 else ""
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))
            lines.append(indent + "  " + deeper + words + rng.choice(["", " ", "  "]))
    return header + line_break + line_break.join(lines) + line_break


def documents(seed: int, count: int) -> Iterator[str]:
    rng = random.Random(seed)
    for _ in range(count):
        where = rng.choice(["top", "card", "list"])
        indent = {"top": "", "card": "    ", "list": "  "}[where]
        style = rng.choice(["", "'", '"', "block"])
        value = block_text(rng, indent) if style == "block" else flow_text(rng, style, indent)
        before = rng.choice(["", 'description: "a\u2028b"\n', "x: 1\r\n", "# \x85 c\n"])
        if where == "top":
            yield f"{before}effect: {value}\nnext: 1\n"
        elif where == "card":
            yield f"{before}cards:\n  - name: A\n    effect: {value}\n    cost: 1\n"
        else:
            yield f"{before}cards:\n  - {value}\n  - b\n"


def check_map(text: str, node: ScalarNode) -> None:
    source = SourceFile("x.yaml", text)
    scalar = scalar_of(source, node)
    value = node.value
    found = origins(text, scalar, value)
    assert isinstance(found, Origins), (text, value)
    previous = -1
    for index, char in enumerate(value):
        start, end = found.starts[index], found.ends[index]
        assert previous < start < end, (text, value, index)
        previous = start
        written = text[start:end]
        if end - start == 1 and char not in " \n":
            assert written == char, (text, value, index)
        elif written[:1] != "\\" and char not in " \n\u2028\u2029":
            assert written == "''" and char == "'", (text, value, index)
    shift = exact_shift(source, scalar, value)
    if shift is not None:
        # where a shift is said to be exact, it agrees with the map at every character
        moved = Shift(*shift)
        value_lines = value.split("\n")
        for line, piece in enumerate(value_lines, 1):
            for column in range(1, len(piece) + 1):
                assert moved.point(line, column) == found.point(line, column), (text, value)


@pytest.mark.parametrize("seed", seeds(2, 8))
def test_random_scalars_are_mapped(seed: int) -> None:
    mapped = 0
    for text in documents(seed, 400):
        try:
            root = yaml.compose(text, Loader=LOADER)
        except yaml.YAMLError:
            continue
        assert root is not None
        for node in scalars(root):
            check_map(text, node)
            mapped += 1
    assert mapped > 1000  # most random documents are YAML: the test is not empty


@pytest.mark.parametrize("text", [
    "effect: >\n  gain(you,\n  nobody)\n",
    "effect: gain(you,\n  nobody)\n",
    'effect: "gain(you, \\"x\\" + nobody)"\n',
    'effect: "x\\ty\\u263a\\x41 \\\n   z  \n\n  w  "\n',
    "effect: 'it''s\n\n  here  '\n",
    "effect: >-\n  one\n   two\n\n  three\n\n\nb: 1\n",
    "effect: |2\n     x\n    y\nb: 2\n",
    "effect: >\n\n\n  a\n\n  b\n  \n",
    'effect: "a\u2028b\n c"\n',
    "effect: >\r\n  x\r\n  y\r\n",
    "effect: >\n  a\u2028  b\n",
])
def test_known_scalars_are_mapped(text: str) -> None:
    root = yaml.compose(text, Loader=LOADER)
    assert isinstance(root, MappingNode)
    check_map(text, root.value[0][1])


def test_a_value_that_is_not_read_gets_no_map() -> None:
    text = "effect: >\n  gain(you,\n  nobody)\n"
    node = yaml.compose(text, Loader=LOADER).value[0][1]
    scalar = scalar_of(SourceFile("x", text), node)
    assert origins(text, scalar, node.value) is not None
    assert origins(text, scalar, node.value + "x") is None
    assert origins(text[:12], scalar, node.value) is None  # (and nothing raised)


def test_spans_through_a_map() -> None:
    text = "effect: >\n  gain(you,\n  nobody)\n"
    node = yaml.compose(text, Loader=LOADER).value[0][1]
    found = origins(text, scalar_of(SourceFile("x", text), node), node.value)
    assert found is not None
    # 'nobody' is at 1:11 in the value "gain(you, nobody)\n", at 3:3 in the file
    assert found.span(Span("x", 1, 11, 1, 17)) == Span("x", 3, 3, 3, 9)
    # a span across the folded line break ends where its last character is
    assert found.span(Span("x", 1, 6, 1, 17)) == Span("x", 2, 8, 3, 9)
    # a point at the end of the value, as the parser gives at an early end
    assert found.span(Span("x", 1, 18, 1, 19)) == Span("x", 3, 10, 3, 11)
