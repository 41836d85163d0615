"""Parser tests: the AST built from the Dynasties rulebook and from small snippets (syntax errors
in tests/test_parser_errors.py, keywords and names in tests/test_parser_keywords.py).

Nodes compare by value and ignore spans, so most tests turn a node into a small nested tuple
(`shape`, in tests/parsing.py) that reads like the expected tree.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.driver import check_rulebook
from dsl import nodes as n
from tests.parsing import expression, parse_ok, parse_text, shape, statements

ROOT = Path(__file__).resolve().parent.parent
DYNASTIES = ROOT / "rulebooks" / "dynasties" / "dynasties.rules"


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
    # the 'if' line, just below the line of '@S11 @S20' (227 and 226 today)
    assert {a.span.line for a in annotated.annotations} == {annotated.span.line - 1}


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

