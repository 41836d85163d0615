"""Parser tests: the AST built from the Dynasties rulebook and from small snippets.

Nodes compare by value and ignore spans, so most tests turn a node into a small nested tuple
(`shape`) that reads like the expected tree.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from compiler.driver import check_rulebook
from dsl import nodes as n
from dsl.diagnostics import Diagnostic, Diagnostics
from dsl.parser import RESERVED_WORDS, _parser, parse
from dsl.source import SourceFile

ROOT = Path(__file__).resolve().parent.parent
DYNASTIES = ROOT / "rulebooks" / "dynasties" / "dynasties.rules"


# ---- helpers ----------------------------------------------------------------------------------
def parse_text(text: str, name: str = "snippet.rules") -> tuple[n.Module | None, list[Diagnostic]]:
    diagnostics = Diagnostics()
    module = parse(SourceFile(name, text), diagnostics)
    return module, diagnostics.sorted()


def parse_ok(text: str) -> n.Module:
    module, diagnostics = parse_text(text)
    assert module is not None and not diagnostics, [d.message for d in diagnostics]
    return module


def expression(text: str) -> n.Expr:
    """The body of `function f() -> int = TEXT`."""
    module = parse_ok(f"function f() -> int = {text}\n")
    decl = module.declarations[0]
    assert isinstance(decl, n.FunctionDecl)
    return decl.body


def statements(text: str) -> tuple[n.Stmt, ...]:
    """The statements of `setup { TEXT }`."""
    module = parse_ok("setup {\n" + text + "\n}\n")
    decl = module.declarations[0]
    assert isinstance(decl, n.SetupDecl)
    return decl.body.statements


def shape(node: object) -> object:
    """A readable nested-tuple picture of an expression."""
    if isinstance(node, n.Name):
        return node.id
    if isinstance(node, n.IntLit):
        return node.value
    if isinstance(node, n.BoolLit):
        return node.value
    if isinstance(node, n.NoneLit):
        return None
    if isinstance(node, n.ActorRef):
        return "actor"
    if isinstance(node, n.PlayersRef):
        return "players"
    if isinstance(node, n.BinaryOp):
        return (node.op, shape(node.left), shape(node.right))
    if isinstance(node, n.Not):
        return ("not", shape(node.operand))
    if isinstance(node, n.Negate):
        return ("neg", shape(node.operand))
    if isinstance(node, n.Conditional):
        return ("if", shape(node.cond), shape(node.then), shape(node.otherwise))
    if isinstance(node, n.Attribute):
        return (".", shape(node.obj), node.name)
    if isinstance(node, n.Index):
        return ("[]", shape(node.obj), *[shape(k) for k in node.keys])
    if isinstance(node, n.Call):
        return ("call", node.func, *[shape(a) for a in node.args])
    if isinstance(node, n.Aggregate):
        return ("agg", node.func, shape(node.element), node.var, shape(node.domain),
                shape(node.where) if node.where is not None else None)
    if isinstance(node, n.Range):
        return ("..", shape(node.low), shape(node.high))
    if isinstance(node, n.ListLit):
        return ["list", *[shape(i) for i in node.items]]
    raise AssertionError(f"no shape for {type(node).__name__}")


@pytest.fixture(scope="module")
def dynasties() -> n.Module:
    module, diagnostics = parse_text(DYNASTIES.read_text(encoding="utf-8"), "dynasties.rules")
    assert module is not None, [d.message for d in diagnostics]
    assert diagnostics == []
    return module


def decls(module: n.Module, kind: type[n.Decl]) -> list[n.Decl]:
    return [d for d in module.declarations if isinstance(d, kind)]


def named(module: n.Module, kind: type[n.Decl], name: str) -> n.Decl:
    for d in decls(module, kind):
        if getattr(d, "name", None) == name:
            return d
    raise AssertionError(f"no {kind.__name__} {name}")


# ---- the Dynasties rulebook --------------------------------------------------------------------
def test_dynasties_declaration_kinds(dynasties: n.Module) -> None:
    games = decls(dynasties, n.Game)
    assert len(games) == 1
    game = games[0]
    assert isinstance(game, n.Game)
    assert (game.name, game.title) == ("dynasties", "Alan Newman's Dynasties")
    assert (game.min_players, game.max_players, game.player_names) == (2, 2, ("A", "B"))
    assert [o.name for o in game.options] == ["warlords"]
    assert [d.name for d in decls(dynasties, n.EnumDecl)] == ["TileKind", "Power"]  # type: ignore[attr-defined]
    records = {d.name: d.is_card for d in decls(dynasties, n.RecordDecl)}  # type: ignore[attr-defined]
    assert records == {"Tile": True, "Warlord": False}
    assert [d.type_name for d in decls(dynasties, n.DataDecl)] == ["Tile", "Warlord"]  # type: ignore[attr-defined]
    assert [d.name for d in decls(dynasties, n.ZoneDecl)] == [  # type: ignore[attr-defined]
        "basics", "deck", "drawn", "rack", "placed", "discarded"]
    assert len(decls(dynasties, n.SetupDecl)) == 1
    assert len(decls(dynasties, n.SeedDecl)) == 1
    assert len(decls(dynasties, n.DecisionDecl)) == 12
    assert len(decls(dynasties, n.FunctionDecl)) == 8
    assert len(decls(dynasties, n.ProcedureDecl)) == 9


def test_dynasties_phases_in_order(dynasties: n.Module) -> None:
    phases = [d.name for d in decls(dynasties, n.PhaseDecl)]  # type: ignore[attr-defined]
    assert phases == [
        "choose_warlord", "placement", "warlord_step", "draw_tiles", "discard_step", "resolution",
    ]
    placement = named(dynasties, n.PhaseDecl, "placement")
    assert isinstance(placement, n.PhaseDecl)
    assert [a.name for a in placement.actions] == ["place"]
    assert placement.enter is not None and placement.done is not None
    assert placement.actor is not None
    place = placement.actions[0]
    assert [(p.name, p.domain is not None) for p in place.params] == [
        ("tile", True), ("prov", False)]
    assert place.says == "{actor} places {tile} on {prov}"


def test_dynasties_zone_attributes(dynasties: n.Module) -> None:
    placed = named(dynasties, n.ZoneDecl, "placed")
    assert isinstance(placed, n.ZoneDecl)
    assert placed.card_type == "Tile"
    assert [name for name, _ in placed.per] == ["player", "Province"]
    assert (placed.visibility, placed.capacity, placed.ordered) == ("secret", 1, False)
    deck = named(dynasties, n.ZoneDecl, "deck")
    assert isinstance(deck, n.ZoneDecl)
    assert (deck.ordered, deck.visibility) == (True, "hidden")


def test_dynasties_seed_rules(dynasties: n.Module) -> None:
    seed = decls(dynasties, n.SeedDecl)[0]
    assert isinstance(seed, n.SeedDecl)
    assert [r.id for r in seed.rules] == [f"S{i}" for i in range(1, 36)]
    omitted = [r.id for r in seed.rules if r.omitted is not None]
    assert omitted == ["S34", "S35"]


def test_dynasties_resolves_with_five_board_nodes() -> None:
    compilation = check_rulebook(DYNASTIES)
    assert compilation.diagnostics.sorted() == []
    assert compilation.ok and compilation.model is not None
    model = compilation.model
    assert model.name == "dynasties"
    board = model.boards["Province"]
    assert board.nodes == ["mongolia", "qinghai", "mandarin", "xinjiang", "tibet"]
    assert all(len(neighbours) >= 3 for neighbours in board.neighbours)
    assert list(model.phases) == [
        "choose_warlord", "placement", "warlord_step", "draw_tiles", "discard_step", "resolution",
    ]


# ---- expressions -------------------------------------------------------------------------------
def test_operator_precedence() -> None:
    assert shape(expression("a or b and not c == d + e * f")) == (
        "or", "a", ("and", "b", ("not", ("==", "c", ("+", "d", ("*", "e", "f"))))))


def test_arithmetic_is_left_associative() -> None:
    assert shape(expression("a - b - c")) == ("-", ("-", "a", "b"), "c")
    assert shape(expression("a / b * c % d")) == ("%", ("*", ("/", "a", "b"), "c"), "d")
    assert shape(expression("a or b or c")) == ("or", ("or", "a", "b"), "c")


def test_unary_minus_and_parentheses() -> None:
    assert shape(expression("-a * b")) == ("*", ("neg", "a"), "b")
    assert shape(expression("-(a + b)")) == ("neg", ("+", "a", "b"))
    assert shape(expression("-3")) == -3
    assert shape(expression("(a or b) and c")) == ("and", ("or", "a", "b"), "c")


def test_comparison_binds_looser_than_range_and_in() -> None:
    assert shape(expression("x in 1..n + 1")) == ("in", "x", ("..", 1, ("+", "n", 1)))
    assert shape(expression("not x in xs")) == ("not", ("in", "x", "xs"))


def test_postfix_chains() -> None:
    assert shape(expression("p.warlord.power")) == (".", (".", "p", "warlord"), "power")
    assert shape(expression("v.scores[dynasty / 3 - 1]")) == (
        "[]", (".", "v", "scores"), ("-", ("/", "dynasty", 3), 1))
    assert shape(expression("placed[A, v]")) == ("[]", "placed", "A", "v")
    assert shape(expression("opponent(p).removed")) == (".", ("call", "opponent", "p"), "removed")


def test_conditional_expressions_nest() -> None:
    assert shape(expression("if a then b else if c then d else e")) == (
        "if", "a", "b", ("if", "c", "d", "e"))
    assert shape(expression("if a then if b then c else d else e")) == (
        "if", "a", ("if", "b", "c", "d"), "e")
    assert shape(expression("(if a then 1 else 0) - (if b then 2 else 0)")) == (
        "-", ("if", "a", 1, 0), ("if", "b", 2, 0))


def test_comprehension_aggregates() -> None:
    assert shape(expression("sum(v.armies for v in Province where v.owner == A)")) == (
        "agg", "sum", (".", "v", "armies"), "v", "Province", ("==", (".", "v", "owner"), "A"))
    assert shape(expression("first(p for p in players where not p.decided)")) == (
        "agg", "first", "p", "p", "players", ("not", (".", "p", "decided")))
    assert shape(expression("count(x for x in 1..3)")) == (
        "agg", "count", "x", "x", ("..", 1, 3), None)
    # an ordinary call with arguments is not an aggregate
    assert shape(expression("min(a, b + 1)")) == ("call", "min", "a", ("+", "b", 1))
    assert shape(expression("flip()")) == ("call", "flip")


def test_list_literals() -> None:
    assert shape(expression("[]")) == ["list"]
    assert shape(expression("[roll(3), roll(3) + 1]")) == [
        "list", ("call", "roll", 3), ("+", ("call", "roll", 3), 1)]


# ---- statements --------------------------------------------------------------------------------
def test_move_statements_and_zone_ends() -> None:
    bottom, top, plain = statements(
        "move drawn[actor] to bottom of deck[actor]\n"
        "move t to top of deck[p]\n"
        "move t to discarded[p]"
    )
    assert isinstance(bottom, n.Move) and isinstance(top, n.Move) and isinstance(plain, n.Move)
    assert (shape(bottom.what), shape(bottom.dest), bottom.end) == (
        ("[]", "drawn", "actor"), ("[]", "deck", "actor"), "bottom")
    assert (shape(top.what), top.end) == ("t", "top")
    assert (shape(plain.dest), plain.end) == (("[]", "discarded", "p"), None)


def test_other_statements() -> None:
    stmts = statements(
        "let x = 1\n"
        "x += 2\n"
        "draw 2 from deck[p] to drawn[p]\n"
        "shuffle deck[p]\n"
        "create t into basics[p]\n"
        "reveal placed[A, v]\n"
        "raise scored(A, 2)\n"
        "win A\n"
        "lose B\n"
        "draw game\n"
        "goto placement\n"
        "repeat 3 { x -= 1 }\n"
        "for v in Province where v.armies > 0 ordered by v.armies desc { plague(v) }\n"
        "if x > 1 { x = 0 } elif x < 0 { x = 1 } else { x = 2 }\n"
    )
    kinds = [type(s).__name__ for s in stmts]
    assert kinds == [
        "Let", "Assign", "Draw", "Shuffle", "Create", "Reveal", "Raise", "Win", "Lose",
        "DrawGame", "Goto", "Repeat", "For", "If",
    ]
    assign = stmts[1]
    assert isinstance(assign, n.Assign) and assign.op == "+="
    raised = stmts[6]
    assert isinstance(raised, n.Raise) and raised.event == "scored" and len(raised.args) == 2
    loop = stmts[12]
    assert isinstance(loop, n.For)
    assert (loop.var, shape(loop.domain), loop.descending) == ("v", "Province", True)
    assert shape(loop.order_by) == (".", "v", "armies")
    branch = stmts[13]
    assert isinstance(branch, n.If)
    assert len(branch.branches) == 2 and branch.otherwise is not None


# ---- annotations, spans and docs ----------------------------------------------------------------
def test_annotations_attach_to_statements(dynasties: n.Module) -> None:
    resolve = named(dynasties, n.ProcedureDecl, "resolve_province")
    assert isinstance(resolve, n.ProcedureDecl)
    first, second = resolve.body.statements[:2]
    assert isinstance(first, n.Reveal) and isinstance(second, n.Reveal)
    assert [a.rule for a in first.annotations] == ["S9"]
    assert second.annotations == ()
    # an annotation inside a nested block goes to the statement under it, not to its block
    win_battle = named(dynasties, n.ProcedureDecl, "win_battle")
    assert isinstance(win_battle, n.ProcedureDecl)
    annotated = win_battle.body.statements[1]
    assert isinstance(annotated, n.If)
    assert [a.rule for a in annotated.annotations] == ["S11", "S20"]
    assert annotated.span.line == 225  # the 'if' line, below '@S11 @S20' on line 224


def test_annotations_attach_to_declarations_and_actions(dynasties: n.Module) -> None:
    tile_data = decls(dynasties, n.DataDecl)[0]
    assert [a.rule for a in tile_data.annotations] == ["S3", "S4", "S15", "S29"]
    assert tile_data.span.line == 82
    assert [a.rule for a in named(dynasties, n.PhaseDecl, "draw_tiles").annotations] == [
        "S6", "S7"]
    place = named(dynasties, n.PhaseDecl, "placement")
    assert isinstance(place, n.PhaseDecl)
    action = place.actions[0]
    assert action.annotations == ()
    annotated = [s for s in action.body.statements if s.annotations]
    assert len(annotated) == 1 and isinstance(annotated[0], n.Require)
    assert [a.rule for a in annotated[0].annotations] == ["S17"]


def test_annotation_spans(dynasties: n.Module) -> None:
    data = decls(dynasties, n.DataDecl)[0]
    s3, s4 = data.annotations[:2]
    assert (s3.span.line, s3.span.column) == (81, 1)
    assert (s4.span.line, s4.span.column) == (81, 5)


def test_spans_point_at_the_source(dynasties: n.Module) -> None:
    game = decls(dynasties, n.Game)[0]
    assert (game.span.line, game.span.column) == (8, 1)
    assert (game.span.end_line, game.span.end_column) == (13, 2)
    tile_value = named(dynasties, n.FunctionDecl, "tile_value")
    assert isinstance(tile_value, n.FunctionDecl)
    assert (tile_value.span.line, tile_value.span.column) == (178, 1)
    body = tile_value.body
    assert isinstance(body, n.Conditional)
    assert (body.span.line, body.span.column) == (179, 3)
    assert (body.cond.span.line, body.cond.span.column) == (179, 6)
    otherwise = body.otherwise
    assert isinstance(otherwise, n.Conditional)
    assert (otherwise.span.line, otherwise.span.column) == (180, 8)


def test_spans_of_names_and_attributes() -> None:
    expr = expression("alpha.beta + gamma")
    assert isinstance(expr, n.BinaryOp)
    left, right = expr.left, expr.right
    assert isinstance(left, n.Attribute)
    assert (left.span.line, left.span.column, left.span.end_column) == (1, 23, 33)
    assert (left.name_span.column, left.name_span.end_column) == (29, 33)
    assert (right.span.column, right.span.end_column) == (36, 41)


def test_doc_comments_attach_to_the_next_declaration(dynasties: n.Module) -> None:
    game = decls(dynasties, n.Game)[0]
    assert game.doc.startswith("Ancient China is divided into five provinces.")
    assert game.doc.endswith("Provinces score in dynasties 3, 6 and 9.")
    assert "\n" not in game.doc  # the three '##' lines are joined
    tile = named(dynasties, n.RecordDecl, "Tile")
    assert tile.doc.startswith("A tile. Number tiles are worth their value")
    # through annotations between the '##' lines and the declaration
    placement = named(dynasties, n.PhaseDecl, "placement")
    assert placement.doc == "Stage 1: each player secretly assigns one tile to each province."
    # a declaration without '##' above it has no doc, even below a documented one
    assert named(dynasties, n.ZoneDecl, "deck").doc == ""
    assert named(dynasties, n.ZoneDecl, "basics").doc == "the basic tiles 1 to 6 in a player's rack"
    assert named(dynasties, n.EnumDecl, "TileKind").doc == ""


def test_doc_comments_need_to_touch_the_declaration() -> None:
    module = parse_ok(
        "## detached by a blank line\n"
        "\n"
        "enum A { x }\n"
        "## attached\n"
        "enum B { y }\n"
    )
    a, b = module.declarations
    assert (a.doc, b.doc) == ("", "attached")


def test_doc_comments_on_actions() -> None:
    module = parse_ok(
        "phase p {\n"
        "  ## Take a chip.\n"
        "  action take() { }\n"
        "}\n"
    )
    phase = module.declarations[0]
    assert isinstance(phase, n.PhaseDecl)
    assert phase.actions[0].doc == "Take a chip."


def test_doc_comments_and_span_of_an_annotated_action() -> None:
    module = parse_ok(
        "phase p {\n"
        "  ## Pass the turn.\n"
        "  @R1\n"
        "  action pass() { }\n"
        "}\n"
    )
    phase = module.declarations[0]
    assert isinstance(phase, n.PhaseDecl)
    action = phase.actions[0]
    assert [a.rule for a in action.annotations] == ["R1"]
    assert action.span.line == 4
    assert action.doc == "Pass the turn."


# ---- syntax errors -------------------------------------------------------------------------------
HEADER = 'game g {\n  title "G"\n  players 2\n}\n\nstate {\n  x: int = 0\n}\n\n'


def only_error(text: str) -> Diagnostic:
    module, diagnostics = parse_text(text)
    assert module is None
    assert len(diagnostics) == 1, [d.message for d in diagnostics]
    return diagnostics[0]


def test_equals_in_a_condition_hint_in_a_snippet() -> None:
    error = only_error("setup { if x = 1 { } }")
    assert error.code == "E0001"
    assert (error.span.line, error.span.column) == (1, 14)
    assert error.hint is not None and "use '=='" in error.hint


def test_require_without_else_hint_in_a_snippet() -> None:
    error = only_error("phase p { action a() { require x } }")
    assert error.code == "E0001"
    assert error.hint is not None and "'require' needs a message" in error.hint


def test_colon_instead_of_braces_hint() -> None:
    error = only_error("setup { if x: }")
    assert error.hint is not None and "braces" in error.hint


EQUALS_IN_RULEBOOK = HEADER + "setup {\n  if x = 1 { goto p }\n}\n"
REQUIRE_IN_RULEBOOK = (
    HEADER + "phase p {\n  actor A\n  action a(n: int in 1..3) says \"{actor} picks {n}\" {\n"
    "    require n > x\n    goto p\n  }\n}\n"
)


def test_equals_in_a_condition_location_in_a_rulebook() -> None:
    error = only_error(EQUALS_IN_RULEBOOK)
    assert error.code == "E0001"
    assert (error.span.line, error.span.column) == (11, 8)
    assert "'='" in error.message


def test_equals_in_a_condition_hint_in_a_rulebook() -> None:
    error = only_error(EQUALS_IN_RULEBOOK)
    assert error.hint is not None and "use '=='" in error.hint


def test_require_without_else_hint_in_a_rulebook() -> None:
    error = only_error(REQUIRE_IN_RULEBOOK)
    assert error.code == "E0001"
    assert (error.span.line, error.span.column) == (14, 5)  # at the token after the condition
    assert error.hint is not None and "'require' needs a message" in error.hint


def test_field_without_type_hint() -> None:
    error = only_error("player { reserve = 21 }")
    assert error.hint is not None and "a field needs a type" in error.hint


def test_unclosed_block_points_at_the_end_and_the_opening() -> None:
    error = only_error(HEADER + "setup {\n  goto p\n")
    assert error.code == "E0002"
    assert error.span.line == 11
    assert any("10:7" in note and "never closed" in note for note in error.notes)


def test_unclosed_string_and_bad_character() -> None:
    error = only_error('game g {\n  title "G\n}\n')
    assert (error.code, error.span.line, error.span.column) == ("E0002", 2, 9)
    error = only_error("setup {\n  x = 1 ; x = 2\n}\n")
    assert (error.code, error.span.line, error.span.column) == ("E0003", 2, 9)


def test_empty_sources() -> None:
    for text in ("", "   \n\t\n"):
        error = only_error(text)
        assert (error.code, error.span.line, error.span.column) == ("E0007", 1, 1)


# ---- keywords and names --------------------------------------------------------------------------
def grammar_words() -> set[str]:
    return {t.pattern.value for t in _parser().terminals
            if t.pattern.type == "str" and re.fullmatch(r"[A-Za-z_]\w*", t.pattern.value)}


# Fields a field can follow: its type, default, 'per' and visibility all end differently.
FIELDS_BEFORE = ("x: int", "x: int = 0", "x: int = 0 hidden", "x: int per player",
                 "x: list of int = [1, 2]", "x: effect() reaches hand", "x: bool = a and b")


def block_with(word: str, before: str, separator: str) -> str:
    return f"state {{\n  {before}{separator}{word}: int = 0 owner\n  y: int\n}}\n"


def field_names(module: n.Module) -> list[tuple[str, str]]:
    decl = module.declarations[0]
    assert isinstance(decl, n.StateDecl)
    return [(f.name, f.visibility) for f in decl.fields]


def test_every_reserved_word_is_a_keyword_of_the_grammar() -> None:
    assert grammar_words() >= RESERVED_WORDS


def test_no_keyword_is_ever_followed_by_a_colon() -> None:
    """The lexer reads a word that could be a keyword or a name as a name when ':' follows it;
    that is only right while no keyword of the grammar can be followed by ':'."""
    states = _parser().parse_interactive("", start="start").parser_state.parse_conf.states
    terminals = {t.name: t.pattern.value for t in _parser().terminals}
    followed = {terminals[symbol] for row in states.values()
                for symbol, (action, target) in row.items()
                if symbol in terminals and symbol != "NAME"
                and re.fullmatch(r"[A-Za-z_]\w*", terminals[symbol])
                and action.name == "Shift" and "COLON" in states[target]}
    assert not followed
    assert terminals["COLON"] == ":"


def test_a_field_name_means_the_same_in_every_position() -> None:
    """Any word of the grammar that is not reserved names a field, whatever comes before it,
    on the next line or the same one."""
    for word in sorted(grammar_words() - RESERVED_WORDS):
        first = parse_ok(block_with(word, "", ""))
        assert field_names(first) == [(word, "owner"), ("y", "public")]
        for before in FIELDS_BEFORE:
            for separator in ("\n  ", "  "):
                module = parse_ok(block_with(word, before, separator))
                assert field_names(module)[1:] == [(word, "owner"), ("y", "public")], (
                    word, before)


def test_a_reserved_word_is_never_a_name() -> None:
    for word in sorted(RESERVED_WORDS):
        for before in ("", *FIELDS_BEFORE):
            error = only_error(block_with(word, before, "\n  "))
            assert error.code == "E0001"
            span = (error.span.line, error.span.column, error.span.end_column)
            assert span == (3, 3, 3 + len(word)), (word, before)
            assert f"'{word}'" in error.message
            assert error.hint == f"'{word}' is a reserved word and cannot be a name; rename it"


def test_a_visibility_is_one_on_the_next_line_too() -> None:
    """Newlines mean nothing: only a ':' after it makes a visibility word a field name."""
    module = parse_ok("state {\n  x: int = 0\n    hidden\n  y: int\n}\n")
    assert field_names(module) == [("x", "hidden"), ("y", "public")]
    module = parse_ok("state { x: int = 0 secret owner: int owner }")
    assert field_names(module) == [("x", "secret"), ("owner", "owner")]


def test_contextual_words_are_names_in_expressions() -> None:
    assert shape(expression("top + names * title")) == ("+", "top", ("*", "names", "title"))
    (assign,) = statements("names = [to, from]")
    assert isinstance(assign, n.Assign)
    (move,) = statements("move c to top of to")
    assert isinstance(move, n.Move) and move.end == "top"


def test_an_unfinished_expression_stops_at_the_next_statement() -> None:
    error = only_error(HEADER + "setup {\n  x = x *\n  goto p\n}\n")
    assert (error.code, error.span.line, error.span.column) == ("E0001", 12, 3)
    assert error.hint is not None and "expression before 'goto' is unfinished" in error.hint


# ---- what a syntax error says is expected ------------------------------------------------------
AGGREGATE = "first(p for p in players where p.x > 0)"


def test_ordered_by_in_an_aggregate() -> None:
    error = only_error("phase p {\n  actor first(q for q in players where q.x ordered by q.y)\n}")
    assert error.code == "E0001"
    assert (error.span.line, error.span.column, error.span.end_column) == (2, 44, 51)
    assert error.message == "unexpected 'ordered'; expected ')'"
    assert error.hint is not None and "'ordered by' sorts only the loop of a 'for'" in error.hint
    assert "min(q.score for q in players)" in error.hint


def test_the_expected_words_never_include_the_unexpected_one() -> None:
    """LALR merges states that differ only in what may follow them, so the row of the state a
    parse fails in can list words that only other text may be followed by; what is expected
    is what the parser, with its actual stack, could go on with. Every word of the grammar
    that is not reserved, after every token of an aggregate."""
    ends = [m.end() for m in re.finditer(r"\w+|[^\s\w]", AGGREGATE)]
    for word in sorted(grammar_words() - RESERVED_WORDS):
        for end in ends:
            text = f"phase play {{\n  actor {AGGREGATE[:end]} {word} {AGGREGATE[end:]}\n}}\n"
            _module, diagnostics = parse_text(text)
            for d in diagnostics:
                found = re.fullmatch(r"unexpected '([^']*)'; expected (.*)", d.message)
                if found:
                    assert f"'{found.group(1)}'" not in found.group(2), (text, d.message)


def test_a_word_after_a_field_is_reported_at_the_word() -> None:
    error = only_error("player {\n  saw: int per player = 0 secret to player\n  n: int\n}\n")
    assert (error.span.line, error.span.column, error.span.end_column) == (2, 34, 36)
    assert error.message == (
        "unexpected 'to' after 'secret': a field is written "
        "'NAME: TYPE [per player | per card] [= DEFAULT] [public | secret | hidden]'")
    assert error.hint is not None and "declare the field on the player who sees it" in error.hint
    error = only_error("state {\n  x: int = 0 hidden to all\n}\n")
    assert error.message.startswith("unexpected 'to' after 'hidden': a field is written")
    assert error.hint == "a field's visibility is one word"
    error = only_error("state {\n  x: int = 0 y z: int\n}\n")
    assert (error.span.line, error.span.column) == (2, 14)
    assert error.message.startswith("unexpected 'y' after '0': a field is written")
    assert error.hint == "here 'y' would begin the next field, which needs ':' and a type"


def test_a_name_without_a_colon_elsewhere_keeps_its_message() -> None:
    """Only a word on the line of a complete field is taken for trailing words."""
    error = only_error("state {\n  x: int = 0\n  y int\n}\n")
    assert (error.span.line, error.span.column, error.message) == (
        3, 5, "unexpected 'int'; expected ':'")
    error = only_error("phase p { action a(x y) { } }")
    assert error.message == "unexpected 'y'; expected ':'"
    error = only_error("player { reserve = 21 }")
    assert error.message == "unexpected '='; expected ':'"
    error = only_error("data Chip { one { value: 1, rare true } }")
    assert error.message == "unexpected 'true'; expected ':'"


def test_the_expected_words_name_kinds_of_text() -> None:
    """Every terminal that could come is expected, keywords too (Lark leaves out the keywords
    when its lexer stops); the terminals that begin a declaration, a statement or an
    expression, or continue one, are named by that kind."""
    assert only_error("setup { x = }").message == "unexpected '}'; expected an expression"
    error = only_error(HEADER + "setup {\n  goto p\n")
    assert error.message == "the file ended early; expected '}' or a statement"
    assert only_error("state { x: int ( }").message == (
        "unexpected '('; expected '=', '?', 'per', '}', a name or a visibility")
    assert only_error("phase p { @S1 , action a() { } }").message == (
        "unexpected ','; expected 'action' or an @annotation")
    assert only_error("setup { if x = 1 { } }").message == (
        "unexpected '='; expected '{' or an operator")
    assert only_error("@S1 , game g { }").message == "unexpected ','; expected a declaration"
