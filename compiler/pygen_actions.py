"""The actions compiled to Python: applying one, listing the legal ones, and the text that
says one (its body written by compiler.pygen_texts)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext

from compiler import types as t
from compiler.model import ActionInfo
from compiler.pygen_base import Bindings, grouped, upper
from compiler.pygen_facts import ACTS, CARD_DEF, DEFINITION_ONLY, HARMLESS
from compiler.pygen_texts import TextGenerator, neutral_noun
from compiler.text_templates import words
from dsl import nodes as n

# At most this many distinct arguments of an action kind (per actor): its LISTED_ table holds
# every action object, made at load, in a tuple that the arguments index (listed_table).
LISTED_LIMIT = 1024


class ActionGenerator(TextGenerator):
    """Each action's apply, legal and text functions."""

    def action(self, action: ActionInfo) -> None:
        decl = action.decl
        w = self.w
        params = [(name, type_) for name, type_, _ in action.params]
        # the text; a bit of `shown` left clear writes that parameter as a neutral phrase, for
        # players who may not see it (State.action_text)
        # `names` says how cards with differing copies read (rt.Action.names)
        # a game with seat names per count reads them from `seats` (StateCore._seat)
        seated = bool(self.model.seat_names)
        seats = ", seats: tuple[str, ...] = PLAYER_NAMES" if seated else ""
        with self.function(f"def text_{action.name}(actor: int, args: tuple[int, ...], "
                           f"shown: int = -1, names: rt.CopyNames = None{seats}) -> str:",
                           decl.span):
            template = decl.says or "{actor} " + words(action.name) + "".join(
                f" {{{name}}}" for name, _, _ in action.params)
            parts = {"actor": "seats[actor]" if seated else "PLAYER_NAMES[actor]"}
            neutral: dict[str, tuple[int, str]] = {}
            for i, (name, type_, _) in enumerate(action.params):
                if isinstance(type_, t.CardT):
                    parts[name] = f"rt.card_name(DEF_NAMES, args, names, {i})"
                elif isinstance(type_, t.PlayerT) and seated:
                    parts[name] = f"seats[args[{i}]]"
                else:
                    parts[name] = self.display(type_, f"args[{i}]")
                neutral[name] = (1 << i, neutral_noun(type_))
            self.action_text_body(template, parts, neutral, self.worded(
                action.params, [f"args[{i}]" for i in range(len(action.params))]))
        self.listed_table(action)
        # the preconditions
        self.bindings = Bindings()
        signature = self.params(params)
        with self.function(f"def check_{action.name}(s: State, actor: int"
                           f"{signature}) -> str | None:", decl.span):
            for require in action.requires:
                w.source(require.span)
                parts = {"actor": "s.player_name(actor)" if self.model.seat_names
                         else "PLAYER_NAMES[actor]"}
                for name, type_ in params:
                    parts[name] = self.display(type_, self.bindings.lookup(name))
                message = self.template(require.message, parts, self.worded(
                    action.params, [self.bindings.lookup(name) for name, _ in params]))
                with w.block(f"if {self.negated(require.cond, test=True)}:"):
                    w.line(f"return {message}")
            w.line("return None")
        # the effects
        self.bindings = Bindings()
        signature = self.params(params)
        with self.function(f"def do_{action.name}(s: State, actor: int{signature}) -> None:",
                           decl.span, decl.doc):
            self.statements(action.effects)
        # enumerating the legal actions
        self.bindings = Bindings()
        with self.function(f"def legal_{action.name}(s: State, actor: int, out: list[Action], "
                           "check: bool) -> None:", decl.span):
            # the listing's own tables of definitions (settle_parts) are made at load, before
            # the end of the module: card_test's are not there yet
            card_tests, self.card_tests = self.card_tests, None
            has_cards = any(isinstance(type_, t.CardT) for _, type_, _ in action.params)
            levels = self.listing_levels(action)
            filters = self.listing_filters(action, levels)
            self.listing_parts = self.settled_parts(action, levels)
            if action.params:
                self.listing_tests(levels[0], "return")
                w.line(f"listed = LISTED_{upper(action.name)}[actor]")
            if has_cards:
                # the arguments listed so far, once a second copy of a card needs them
                w.line("seen: set[tuple[int, ...]] | None = None")
                w.line("start = len(out)")
            for i in filters:
                # the values of a parameter that pass the tests that read it only, found
                # when first needed, not again for each value of the parameters before it
                var = self.bindings.bind(action.params[i][0])
                w.line(f"{var}_values: list[int] | None = None")
            self.definition_tables: list[tuple[n.Require, str, str]] = []
            self.listing_action = action.name
            self.settle_parts(0)
            self.legal_loops(action, 0, has_cards, levels, filters)
            self.card_tests = card_tests
        for require, table, test in self.definition_tables:
            w.line()
            w.line()
            w.source(require.span)
            w.line(f"{table}: Final[tuple[bool, ...]] = tuple(bool({test}) "
                   f"for d in range({self.def_count}))")
        # applying one
        self.bindings = Bindings()
        # apply_action has checked the shape of the action and the range of each argument
        # (rt.GameState.apply_action), or a listing made it (rt.Listed)
        with self.function(f"def apply_{action.name}(s: State, a: Action) -> str | None:",
                           decl.span):
            w.line("actor = a.actor")
            if not any(isinstance(type_, t.CardT) for _, type_, _ in action.params):
                names: list[str] = []
                for i, (name, type_, domain) in enumerate(action.params):
                    var = self.bindings.bind(name)
                    names.append(var)
                    w.line(f"{var} = a.args[{i}]")
                    if not self.in_range(type_, domain):
                        with w.block(f"if {var} not in {self.domain(type_, domain)}:"):
                            w.line(f"return {self.not_a_choice(type_, var)}")
                args = "".join(f", {v}" for v in names)
                w.line(f"reason = check_{action.name}(s, actor{args})")
                with w.block("if reason is None:"):
                    w.line(f"do_{action.name}(s, actor{args})")
                w.line("return reason")
            else:
                # Cards are named by definition: the action is taken with the first copies
                # that allow it, and refused with the first reason found if none does.
                self.apply_first_copy(action)
                w.line("first: str | None = None")
                self.apply_nest(action, 0, [])
                w.line("return first or 'this is not possible now'")
        if any(isinstance(type_, t.CardT) for _, type_, _ in action.params):
            # which copies applying the action would take: whether another player may see
            # them is a question about those very cards (State.action_text)
            self.bindings = Bindings()
            with self.function(f"def pick_{action.name}(s: State, a: Action) -> "
                               "tuple[int, ...] | None:", decl.span):
                w.line("actor = a.actor")
                with w.block(f"if len(a.args) != {len(action.params)}:"):
                    w.line("return None")
                self.pick_nest(action, 0, [], [])
                w.line("return None")

    def in_range(self, type_: t.Type, domain: n.Expr | None) -> bool:
        """Whether every argument in the parameter's range (State.ENCODING, which apply_action
        checks) is in its domain: a type's values, not players (fewer may play), or a range
        of numbers (the encoding's own)."""
        return (domain is None and not isinstance(type_, t.PlayerT)) or isinstance(type_, t.IntT)

    def not_a_choice(self, type_: t.Type, var: str) -> str:
        if isinstance(type_, t.IntT):
            return f"str({var}) + ' is not a choice here'"
        return f"{self.display(type_, var)!s} + ' is not a choice here'"

    def apply_first_copy(self, action: ActionInfo) -> None:
        """The common case of applying an action with one card parameter, before the loops
        of apply_nest: a card named by its definition alone (the first group of copies) is
        tried first as the first copy of that definition in its domain, which is the first
        copy find_cards gives. When the rules allow it (check_<action>'s tests, made here), it
        is taken at once, without listing the copies; when they do not, the loops try the
        copies in order and say why. Only when trying it twice changes nothing: no domain or
        require may act."""
        cards = [i for i, (_, type_, _) in enumerate(action.params) if isinstance(type_, t.CardT)]
        if len(cards) != 1 or any(self.risk(r.cond) == ACTS for r in action.requires):
            return
        card_name = action.params[cards[0]][0]
        for _, _, domain in action.params:
            if domain is not None and (self.risk(domain) != HARMLESS
                                       or self.reads(domain, [card_name])):
                return  # tried twice, or read before the card is found
        w = self.w
        names: list[str] = []
        tests: list[str] = []
        card = cards[0]
        for i, (name, type_, domain) in enumerate(action.params):
            var = self.bindings.bind(name)
            names.append(var)
            if i == card:
                continue
            w.line(f"{var} = a.args[{i}]")
            if not self.in_range(type_, domain):
                tests.append(f"{var} in {self.domain(type_, domain)}")
        name, type_, domain = action.params[card]
        var = names[card]
        test = " and ".join([f"{var}_arg < {self.def_count}", *tests])
        w.line(f"{var}_arg = a.args[{card}]")
        with (w.block(f"if {test}:"), w.block(f"for {var} in {self.domain(type_, domain)}:"),
              w.block(f"if s.card_def[{var}] == {var}_arg:")):
            # check_<action>'s tests, without the reasons
            for require in action.requires:
                w.source(require.span)
                with w.block(f"if {self.negated(require.cond, test=True)}:"):
                    w.line("break")
            w.line(f"do_{action.name}(s, actor{''.join(f', {v}' for v in names)})")
            w.line("return None")
        self.bindings = Bindings()  # the loops below bind the same names again

    def apply_nest(self, action: ActionInfo, i: int, names: list[str]) -> None:
        """Nested loops over the copies of each card parameter (a domain may depend on the
        parameters before it), trying the action with each combination in order."""
        w = self.w
        if i == len(action.params):
            args = "".join(f", {v}" for v in names)
            w.line(f"reason = check_{action.name}(s, actor{args})")
            with w.block("if reason is None:"):
                w.line(f"do_{action.name}(s, actor{args})")
                w.line("return None")
            w.line("first = first or reason")
            return
        name, type_, domain = action.params[i]
        var = self.bindings.bind(name)
        collection = self.domain(type_, domain)
        if isinstance(type_, t.CardT):
            copies = f"{var}_copies"
            w.line(f"{copies} = s.find_cards({collection}, a.args[{i}])")
            with w.block(f"if not {copies}:"):
                w.line(f"first = first or 'no ' + "
                       f"{self.display(type_, f'a.args[{i}]', True)} + ' is available'")
            with w.block(f"for {var} in {copies}:"):
                self.apply_nest(action, i + 1, [*names, var])
        else:
            w.line(f"{var} = a.args[{i}]")
            if self.in_range(type_, domain):
                self.apply_nest(action, i + 1, [*names, var])
                return
            with w.block(f"if {var} not in {collection}:"):
                w.line(f"first = first or {self.not_a_choice(type_, var)}")
            with w.block("else:"):
                self.apply_nest(action, i + 1, [*names, var])

    def pick_nest(self, action: ActionInfo, i: int, names: list[str], tests: list[str]) -> None:
        """The loops of apply_nest, returning the arguments (cards as instances) that the
        action would be taken with instead of taking it. `tests` are the domain tests of the
        parameters since the last loop, joined into the next `if`."""
        w = self.w
        if i == len(action.params):
            args = "".join(f", {v}" for v in names)
            parts = [*tests, f"check_{action.name}(s, actor{args}) is None"]
            test = " and ".join(parts)
            if len(test) > 80 and len(parts) > 1:  # one test a line, within the line length
                w.line("if (")
                w.line(f"    {parts[0]}")
                for part in parts[1:]:
                    w.line(f"    and {part}")
                header = "):"
            else:
                header = f"if {test}:"
            with w.block(header):
                w.line("return (" + "".join(f"{v}, " for v in names) + ")")
            return
        name, type_, domain = action.params[i]
        var = self.bindings.bind(name)
        collection = self.domain(type_, domain)
        if isinstance(type_, t.CardT):
            loop = f"for {var} in s.find_cards({collection}, a.args[{i}]):"
            if tests:
                with w.block(f"if {' and '.join(tests)}:"), w.block(loop):
                    self.pick_nest(action, i + 1, [*names, var], [])
            else:
                with w.block(loop):
                    self.pick_nest(action, i + 1, [*names, var], [])
        else:
            # the walrus binds the value where the tests stand, in order, for the next domains
            self.pick_nest(action, i + 1, [*names, var],
                           [*tests, f"({var} := a.args[{i}]) in {collection}"])

    def listed_table(self, action: ActionInfo) -> None:
        """LISTED_<action>: per actor, the action objects that legal_ lists, made once
        (rt.Listed). Every listing may share them: nothing changes an Action once it is
        listed; only copy_arg names actions after the fact, and legal_ gives it its own copies.
        A kind with few distinct arguments has them all, made at load, in one flat tuple that
        the arguments index (listed_index); the others, by their arguments, when first listed."""
        w = self.w
        kind, text = f"K_{upper(action.name)}", f"text_{action.name}"
        name = f"LISTED_{upper(action.name)}"
        w.line()
        w.line()
        if not action.params:
            w.line(f"{name}: Final = tuple(Listed({kind}, actor, (), {text}) "
                   f"for actor in range({self.max_players}))")
            return
        if self.listed_strides(action) is None:
            w.line(f"{name}: Final[tuple[dict[tuple[int, ...], Action], ...]] = "
                   f"tuple({{}} for _ in range({self.max_players}))")
            return
        args = [f"a{i}" for i in range(len(action.params))]
        loops = [f"for {a} in range({base}, {base + count})"
                 for a, (base, count) in zip(args, self.arg_sizes(action), strict=True)]
        made = f"Listed({kind}, actor, ({''.join(a + ', ' for a in args)}), {text})"
        if len(args) > 1:
            # a row per value of the arguments before the last: the listing looks the row
            # up once, outside its innermost loop, and indexes it by the last argument alone
            made = f"tuple({made} {loops[-1]})"
            loops = loops[:-1]
        w.line(f"{name}: Final = tuple(tuple({made} {' '.join(loops)}) "
               f"for actor in range({self.max_players}))")

    def listed_strides(self, action: ActionInfo) -> list[tuple[int, int]] | None:
        """(first value, stride) of each argument in the index of a flat LISTED_<action>, or
        None when the kind has too many distinct arguments for one (LISTED_LIMIT)."""
        strides: list[tuple[int, int]] = []
        stride = 1
        for base, count in reversed(self.arg_sizes(action)):
            strides.append((base, stride))
            stride *= count
        return strides[::-1] if stride <= LISTED_LIMIT else None

    def listed_index(self, args: list[str], sizes: list[tuple[int, int]]) -> str:
        """The index in a flat table of the arguments `args`, of these (first value, count)."""
        terms = []
        stride = 1
        for arg, (base, count) in reversed(list(zip(args, sizes, strict=True))):
            term = f"({arg} - {base})" if base else arg
            terms.append(f"{term} * {stride}" if stride != 1 else term)
            stride *= count
        return " + ".join(reversed(terms))

    def listed_row(self, action: ActionInfo, i: int) -> None:
        """Before the loop over the last parameter: the row of LISTED_<action> (listed_table)
        of the arguments before it, which every value of the last one appends from."""
        if (i == len(action.params) - 1 and i > 0
                and self.listed_strides(action) is not None):
            values = [self.bindings.lookup(name) for name, _, _ in action.params[:i]]
            encoded = [f"{v}_arg" if isinstance(type_, t.CardT) else v
                       for v, (_, type_, _) in zip(values, action.params[:i], strict=True)]
            index = self.listed_index(encoded, self.arg_sizes(action)[:i])
            self.w.line(f"row = listed[{index}]")

    def listed_action(self, action: ActionInfo, args: list[str]) -> None:
        """Appending the listed action whose arguments are `args`, from LISTED_<action> (from
        the row that listed_row looked up, when the action has more than one parameter)."""
        w = self.w
        if self.listed_strides(action) is not None:
            sizes = self.arg_sizes(action)
            if len(args) > 1:
                w.line(f"out.append(row[{self.listed_index(args[-1:], sizes[-1:])}])")
            else:
                w.line(f"out.append(listed[{self.listed_index(args, sizes)}])")
            return
        w.line(f"key = ({''.join(a + ', ' for a in args)})")
        w.line("action = listed.get(key)")
        with w.block("if action is None:"):
            w.line(f"action = listed[key] = Listed(K_{upper(action.name)}, actor, key, "
                   f"text_{action.name})")
        w.line("out.append(action)")

    def listing_levels(self, action: ActionInfo) -> list[list[n.Require]]:
        """The requires of an action by where the listing tests them: level i after the loops
        over its first i parameters, so a test that reads none of the later ones is not made
        again for each of their values. A test moves out no further than the parameters it
        reads, and never before an earlier one that may raise an error or act (it may guard
        the tests after it); one that may raise stays after every earlier one, and one that
        may act is made where it always was, innermost."""
        params = [name for name, _, _ in action.params]
        innermost = len(params)
        levels: list[list[n.Require]] = [[] for _ in range(innermost + 1)]
        deepest = 0  # the deepest level of the tests so far
        deepest_risky = 0  # the same, of the tests that may raise or act
        for require in action.requires:
            risk = self.risk(require.cond)
            level = max((params.index(p) + 1 for p in self.reads(require.cond, params)),
                        default=0)
            if risk == ACTS:
                level = innermost
            level = max(level, deepest if risk != HARMLESS else deepest_risky)
            if risk != HARMLESS:
                deepest_risky = level
            deepest = max(deepest, level)
            levels[level].append(require)
        return levels

    def listing_filters(
        self, action: ActionInfo, levels: list[list[n.Require]]
    ) -> dict[int, list[n.Require]]:
        """The tests taken out of `levels` to filter a parameter's values once, before the
        loops: harmless tests that read that parameter only (not the first, whose loop is
        outermost, nor a card, whose copies are told apart over its whole domain), whose
        domain reads no parameter before it, with only harmless tests before them."""
        params = [name for name, _, _ in action.params]
        filters: dict[int, list[n.Require]] = {}
        for i in range(1, len(params)):
            if any(self.risk(r.cond) != HARMLESS for r in levels[i]):
                break
            _, type_, domain = action.params[i]
            if isinstance(type_, t.CardT) or (domain is not None and (
                    self.reads(domain, params[:i]) or self.risk(domain) != HARMLESS)):
                continue
            tests = levels[i + 1]
            taken = 0
            while (taken < len(tests) and self.risk(tests[taken].cond) == HARMLESS
                   and self.reads(tests[taken].cond, params) == {params[i]}):
                taken += 1
            if taken:
                filters[i] = tests[:taken]
                levels[i + 1] = tests[taken:]
        return filters

    def legal_loops(
        self, action: ActionInfo, i: int, has_cards: bool, levels: list[list[n.Require]],
        filters: dict[int, list[n.Require]],
    ) -> None:
        w = self.w
        if 0 < i < len(action.params):
            self.listing_tests(levels[i], "continue")
            self.settle_parts(i)
            self.listed_row(action, i)
        if i == len(action.params):
            values = [self.bindings.lookup(name) for name, _, _ in action.params]
            encoded = [f"{v}_arg" if isinstance(type_, t.CardT) else v
                       for v, (_, type_, _) in zip(values, action.params, strict=True)]
            key = "(" + "".join(f"{e}, " for e in encoded) + ")"
            if not action.params:
                self.listing_tests(levels[i], "return")
                w.line(f"out.append(LISTED_{upper(action.name)}[actor])")
                return
            if not has_cards:
                self.listing_tests(levels[i], "continue")
                self.listed_action(action, encoded)
                return
            # the harmless tests first: they turn down more than `seen` does
            tests = levels[i]
            harmless = 0
            while harmless < len(tests) and self.risk(tests[harmless].cond) == HARMLESS:
                harmless += 1
            self.listing_tests(tests[:harmless], "continue")
            cards = [v for v, (_, type_, _) in zip(values, action.params, strict=True)
                     if isinstance(type_, t.CardT)]
            # copies alike in every state are one choice: the first that may act stands for
            # all (rt.GameState.copy_args); only a card whose definition came before in its
            # domain can give arguments listed before, and `seen` is made for it
            plain = self.plain_listing(action, levels)
            if plain:  # no copy met twice, none named (legal_loops): the shared action
                with w.block("if plain:"):
                    self.listed_action(action, encoded)
            with w.block("else:") if plain else nullcontext():
                with w.block(f"if {grouped(' or '.join(f'{v}_again' for v in cards))} "
                             f"and seen is not None and {key} in seen:"):
                    w.line("continue")
                self.listing_tests(tests[harmless:], "continue")
                with w.block("if seen is not None:"):
                    w.line(f"seen.add({key})")
                with w.block(f"if {' or '.join(f'{v}_names' for v in cards)}:"):
                    # copies of a card that read differently: an action of its own
                    names = "".join(f"{v}_names.get({v}_arg), " if v in cards else "None, "
                                    for v in values)
                    w.line(f"out.append(Action(K_{upper(action.name)}, actor, {key}, "
                           f"text_{action.name}, ({names})))")
                with w.block("else:"):
                    self.listed_action(action, encoded)
            return
        name, type_, domain = action.params[i]
        if i in filters:
            var = self.bindings.lookup(name)
            with w.block(f"if {var}_values is None:"):
                for require in filters[i]:
                    w.source(require.span)
                collection = self.domain(type_, domain)
                test = " and ".join(self.expr(r.cond) for r in filters[i])
                # a loop, not a list comprehension: that is a call of its own, which costs
                # more than appending the few values of a domain
                with w.block("if check:"):
                    w.line(f"{var}_values = []")
                    with w.block(f"for {var} in {collection}:"), w.block(f"if {test}:"):
                        w.line(f"{var}_values.append({var})")
                with w.block("else:"):
                    w.line(f"{var}_values = list({collection})")
            self.plain_loop(action, i, f"{var}_values", levels, has_cards)
            with w.block(f"for {var} in {var}_values:"):
                self.legal_loops(action, i + 1, has_cards, levels, filters)
            return
        collection = self.domain(type_, domain)
        var = self.bindings.bind(name)
        if not isinstance(type_, t.CardT):
            self.plain_loop(action, i, collection, levels, has_cards)
        if isinstance(type_, t.CardT):
            # a card is named by its definition; only a second copy of one in the domain
            # costs more: it is a choice of its own if it differs (rt.GameState.copy_arg)
            w.line(f"{var}_cards = {collection}")
            # the loop is all that its enclosing block does: an empty domain ends it at once
            with w.block(f"if not {var}_cards:"):
                w.line("continue" if i > 0 else "return")
            w.line(f"{var}_first: dict[int, int] = {{}}")
            w.line(f"{var}_names = rt.NO_NAMES")
            w.line(f"{var}_start = len(out)")
            with w.block(f"for {var} in {var}_cards:"):
                self.listing_tests(self.definition_tests(levels[i + 1], name), "continue")
                w.line(f"{var}_arg = s.card_def[{var}]")
                w.line(f"{var}_again = {var}_arg in {var}_first")
                with w.block(f"if {var}_again:"):
                    with w.block(f"if not s.same_choice({var}, {var}_first[{var}_arg]):"):
                        # copy_arg names the actions listed so far: our own copies, not the
                        # shared ones of LISTED_<action>
                        w.line(f"out[{var}_start:] = [a if a.names else a.plain() "
                               f"for a in out[{var}_start:]]")
                        w.line(f"{var}_arg, {var}_names = s.copy_arg({var}_cards, {var}, out, "
                               f"{var}_start, {i})")
                    with w.block("if seen is None:"):
                        w.line("seen = {a.args for a in out[start:]}")
                with w.block("else:"):
                    w.line(f"{var}_first[{var}_arg] = {var}")
                card_params = [p for p, (_, type_, _) in enumerate(action.params)
                               if isinstance(type_, t.CardT)]
                if i == card_params[-1] and self.plain_listing(action, levels):
                    # the common case, settled once for the values of the parameters inside:
                    # nothing listed yet can be listed again, and no card reads as its copy
                    names = " or ".join(f"{self.bindings.lookup(action.params[c][0])}_names"
                                        for c in card_params)
                    w.line(f"plain = seen is None and not {grouped(names)}")
                self.legal_loops(action, i + 1, has_cards, levels, filters)
            return
        with w.block(f"for {var} in {collection}:"):
            self.legal_loops(action, i + 1, has_cards, levels, filters)

    def plain_loop(
        self, action: ActionInfo, i: int, values: str, levels: list[list[n.Require]],
        has_cards: bool,
    ) -> None:
        """Before the loop over the last parameter, not a card, of an action with cards: the
        same loop for the common case, when `plain` holds and the settled parts of the tests
        inside (settle_parts) say they pass every value, which only appends the shared
        actions. The loop after it makes the tests and looks at copies for each value."""
        if (i != len(action.params) - 1 or not has_cards
                or not self.plain_listing(action, levels)
                or self.listed_strides(action) is None):
            return
        tests = levels[len(action.params)]
        parts = [self.listing_parts.get(id(require)) for require in tests]
        if any(part is None or part[1] > i for part in parts):
            return
        settled = [part[3] for part in parts if part is not None]
        w = self.w
        test = " or ".join(settled)
        with w.block(f"if plain and not {grouped(test)}:" if settled else "if plain:"):
            var = self.bindings.lookup(action.params[i][0])
            with w.block(f"for {var} in {values}:"):
                values_now = [self.bindings.lookup(name) for name, _, _ in action.params]
                self.listed_action(action, [
                    f"{v}_arg" if isinstance(type_, t.CardT) else v
                    for v, (_, type_, _) in zip(values_now, action.params, strict=True)])
            w.line("continue")

    def plain_listing(self, action: ActionInfo, levels: list[list[n.Require]]) -> bool:
        """Whether the innermost loop of an action with card parameters has a path for the
        common case (`plain`): when every test there is harmless, so that none need come
        between the look in `seen` and adding to it."""
        return all(self.risk(r.cond) == HARMLESS for r in levels[len(action.params)])

    def listing_tests(self, requires: Sequence[n.Require], skip: str) -> None:
        """The requires of an action as the listing tests them: true or false, without the
        reasons that check_ gives (`check` is false when every action is listed unchecked)."""
        w = self.w
        if len(requires) == 1:
            w.source(requires[0].span)
            # a settled part (settle_parts) has `check` in it already
            settled = "" if id(requires[0]) in self.listing_parts else "check and "
            with w.block(f"if {settled}{self.refusal(requires[0])}:"):
                w.line(skip)
        elif requires:
            with w.block("if check:"):
                for require in requires:
                    w.source(require.span)
                    with w.block(f"if {self.refusal(require)}:"):
                        w.line(skip)

    def refusal(self, require: n.Require) -> str:
        """The test that a require fails, its settled part (settle_parts) read from where it
        was worked out."""
        part = self.listing_parts.get(id(require))
        if part is None:
            return self.negated(require.cond, test=True)
        _, _, count, var = part
        rest = self.refusal_terms(require.cond)[count:]
        # the terms are names, calls, subscripts, comparisons in brackets or `not`s: none
        # needs brackets in a conjunction
        return " and ".join([var, *(self.term(term) for term in rest)])

    def refusal_terms(self, cond: n.Expr) -> list[tuple[n.Expr, bool]]:
        """The terms whose conjunction is the test that a require fails: (term, negated)."""
        if isinstance(cond, n.Not):
            terms: list[n.Expr] = []
            chain = [cond.operand]
            while chain:  # `a and b and c` parses as `(a and b) and c`
                term = chain.pop()
                if isinstance(term, n.BinaryOp) and term.op == "and":
                    chain += [term.right, term.left]
                else:
                    terms.append(term)
            return [(term, False) for term in terms]
        if isinstance(cond, n.BinaryOp) and cond.op == "or":
            return [*self.refusal_terms(cond.left), *self.refusal_terms(cond.right)]
        return [(cond, True)]

    def term(self, term: tuple[n.Expr, bool]) -> str:
        expr, negated = term
        return self.negated(expr, test=True) if negated else self.expr(expr)

    def settled_parts(
        self, action: ActionInfo, levels: list[list[n.Require]]
    ) -> dict[int, tuple[n.Require, int, int, str]]:
        """By require (its id): (require, level, count, variable) when the first `count` terms
        of the test that it fails are harmless and read only parameters whose loops are outside
        its own: their conjunction is worked out once at that level, into the variable, not
        for each value of the parameters inside (a tile's kind, tested against every
        province)."""
        params = [name for name, _, _ in action.params]
        parts: dict[int, tuple[n.Require, int, int, str]] = {}
        for level, tests in enumerate(levels):
            for require in tests:
                terms = self.refusal_terms(require.cond)
                count = 0
                settled = 0
                for expr, _ in terms[:-1]:
                    reads = self.reads(expr, params)
                    depth = max((params.index(p) + 1 for p in reads), default=0)
                    if depth >= level or self.risk(expr) != HARMLESS:
                        break
                    count += 1
                    settled = max(settled, depth)
                if count:
                    variable = self.bindings.reserve(f"test_{require.span.line}")
                    parts[id(require)] = (require, settled, count, variable)
        return parts

    def settle_parts(self, level: int) -> None:
        """Work out the settled parts (settled_parts) of the tests inside, at this level."""
        for require, settled, count, var in self.listing_parts.values():
            if settled != level:
                continue
            self.w.source(require.span)
            terms = self.refusal_terms(require.cond)[:count]
            test = " and ".join(self.term(t) for t in terms)
            card = DEFINITION_ONLY.fullmatch(test.replace("s.card_def[", "\0"))
            cards = set(CARD_DEF.findall(test))
            if card is not None and len(cards) == 1:
                # a test of a card's definition alone: a table, worked out at load, of its
                # answer for each definition (listed after the function)
                found = cards.pop()
                table = f"T_{upper(self.listing_action)}_{upper(var.removeprefix('v_'))}"
                self.definition_tables.append(
                    (require, table, test.replace(f"s.card_def[{found}]", "d")))
                test = f"{table}[s.card_def[{found}]]"
            # false when every action is listed unchecked: the tests inside need not ask
            self.w.line(f"{var} = check and {grouped(test) if ' ' in test else test}")

    def domain(self, type_: t.Type, domain: n.Expr | None) -> str:
        if domain is not None:
            return self.collection(domain)
        return self.type_domain(type_)
