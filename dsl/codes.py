"""The one registry of diagnostic codes: E… errors, W… warnings, each with a long explanation.

Codes are grouped like mypy's: 00xx reading and syntax, 01xx names, 02xx types, 03xx
reachability and structure, 04xx data files and coverage.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    code: str
    title: str
    explanation: str


_ENTRIES = [
    Code("E0000", "internal compiler error", """
The compiler itself failed on this input. This is a bug in Rulecraft, not in the rulebook; the
message says which stage failed. Please report it with the file that triggers it.
"""),
    Code("E0001", "syntax error", """
The parser met a token it did not expect here. The message names what was found and what the
language expects at that place (for example a '}' to close a block, or an expression after '=').

    phase draw {
      on enter { draw 2 from deck[p] to hand[p]   # missing '}'
    }

Words that begin a statement or an expression (let, if, for, move, draw, goto, win, require,
and, or, not, true, none, actor, players...) are reserved and can never be names: a field, a
variable or an enum member called 'goto' is E0001 with a hint to rename it. An expression left
unfinished at the end of a line is reported at the keyword that follows it. Every other word
of the language (names, title, owner, deck, top...) is a keyword only where the grammar can
take it, and a name everywhere else; see "Keywords and names" in docs/language.md.
"""),
    Code("E0002", "unexpected end of file", """
The file ended while a block, string or list was still open. Every '{' needs its '}', every '('
its ')' and every '"' its closing quote. The diagnostic points at the end of the file and notes
where the still-open block began.
"""),
    Code("E0003", "invalid character", """
A character that is not part of the language appears outside a string or comment. Names are
letters, digits and underscores; strings use double quotes; comments start with '#'.

In a YAML file (a card set, a deck, a map, a scenario): a character YAML does not allow
anywhere, such as a control character. Delete it, or write it as an escape ("\\x07") inside
a double-quoted string.
"""),
    Code("E0004", "unreadable source", """
The file could not be read as UTF-8 text: it is binary, uses another encoding, or could not be
opened. Save rulebooks as UTF-8.
"""),
    Code("E0005", "source too large", """
Rulebooks and card sets are limited in size (see `dsl.parser.MAX_SOURCE_BYTES`) so that a broken
or hostile input cannot exhaust memory. Split very large card sets into several files.

A YAML file (card set, deck, map, scenario) is also too large when its aliases (`*name`, which
repeat the value anchored as `&name`) repeat more than 100,000 values in all
(`dsl.yaml_limits.MAX_ALIASED_VALUES`), or when an alias is inside the value it repeats, which
would never end. A few lines of anchors can otherwise stand for billions of values (the
"billion laughs"). The diagnostic points at the alias that crosses the limit.
"""),
    Code("E0006", "nesting too deep", """
Blocks or expressions are nested deeper than the compiler allows (see `dsl.nesting.MAX_NESTING`).
Real rules never need this; flatten the rule with `let` or a procedure.

In a YAML file (card set, deck, map, scenario), lists and mappings may nest at most 100 levels
deep (`dsl.yaml_limits.MAX_YAML_NESTING`), counting the values an alias repeats where the alias
is; real files nest a few. The file is measured before it is loaded, so a file nested thousands
of levels deep is reported here instead of crashing the loader. The diagnostic points at the
list or mapping that opens the 101st level.
"""),
    Code("E0007", "empty source", """
The file contains no declarations. A rulebook starts with a `game NAME { ... }` header.
"""),
    Code("E0008", "output cannot be written", """
`rulecraft build` could not make an output folder or write a file in it: a file stands where a
folder is needed, a folder where a file is needed, or the folder may not be written to. Nothing
else is wrong with the rulebooks. Build into another folder with `-o DIR`, or remove what is in
the way. Without `-o`, the output goes to the project's `generated/` folder (or the folder that
`output` names in its `rulecraft.toml`), or beside a rulebook that belongs to no project.
"""),
    Code("E0009", "generated output is stale", """
`rulecraft build --check` found a file in the output folder that is not what the rulebooks
produce now: a rulebook, card set, deck or map changed since the last build (or the file was
edited by hand), or the file was generated from a rulebook that no longer exists. Run
`rulecraft build`, which rewrites the one and removes the other, and commit the result, so
that the committed modules and docs never drift from their rulebooks.
"""),
    Code("E0101", "unknown name", """
A name is used that no declaration, parameter or `let` introduces in this scope. Check the
spelling; the hint lists close matches. Names are case-sensitive.

    move 2 armies from resreve to province    # 'resreve' is not declared
"""),
    Code("E0102", "duplicate declaration", """
Two declarations share a name in the same namespace (types, phases, zones, fields, actions,
functions, or entries of one enum). Rename one of them; the note points at the first.
"""),
    Code("E0103", "unknown type", """
A type annotation names no built-in type (int, bool, text, player, list of T, T?) and no
declared enum, record, card type or board.
"""),
    Code("E0104", "unknown field", """
A field is read or written that the value's type does not declare. Players have the fields of
the `player { }` block, board nodes the fields of their `board` block, records and cards the
fields of their declaration.
"""),
    Code("E0105", "unknown phase", """
`goto` names a phase that is not declared.
"""),
    Code("E0106", "unknown zone", """
A zone is used (in move, draw, shuffle, create or reveal) that is not declared with
`zone NAME: CardType ...`. The hint lists declared zones with similar names.
"""),
    Code("E0107", "unknown rule reference", """
An `@ID` annotation names a rule that the `seed { }` block does not list. Coverage annotations
tie source lines to the rules of the seed document; add the rule to the seed block first.
"""),
    Code("E0108", "game header missing or repeated", """
Every rulebook has exactly one `game NAME { ... }` header naming the game, its player count and
its options.
"""),
    Code("E0201", "type mismatch", """
An expression has a different type from the one its place requires: an assignment to a field of
another type, an argument of the wrong type, a comparison between unrelated types, or a default
value that does not fit its field. A bare word in a card set where the field needs a number or
`true`/`false` (`cost: three`) is reported so, with the type the field needs.
"""),
    Code("E0202", "value may be none", """
The value has an optional type (`T?`) and is used where a `T` is required. Test it first:

    let t = first(placed[p, prov])
    if t != none { ... t.value ... }
"""),
    Code("E0203", "wrong number of arguments", """
A function, procedure, builtin or event is called with more or fewer arguments than it takes.
"""),
    Code("E0204", "not assignable", """
Only fields of the game, of players and of board nodes, and `let` variables, can be assigned.
Card and record fields are fixed data; parameters and loop variables are read-only.
"""),
    Code("E0205", "not iterable", """
`for`, aggregates (`sum`, `count`, `any`, ...) and action parameter domains need a collection:
a zone, a list, a board or enum or record or card type, `players`, or a range `a..b`.
"""),
    Code("E0206", "operator not applicable", """
The operator is not defined for these operand types: arithmetic needs ints, `and`/`or`/`not`
need bools, `+` on zones or lists concatenates them.
"""),
    Code("E0207", "wrong kind of statement here", """
The statement is not allowed in this place: `actor` outside an action or phase, `require`
outside an action, `goto`/`win` inside a function (functions are pure), or `return` missing.
"""),
    Code("E0208", "wrong zone index or order", """
A zone is indexed with the wrong number or kind of keys. A zone declared `per player per
Province` is written `placed[p, prov]`; a zone with no `per` clause takes no index. Also
reported when an order-dependent statement (draw from, shuffle, move to the top or bottom of)
is used on a zone that is not declared `ordered`.
"""),
    Code("E0209", "bad option value", """
An option's default does not match its type, or an option is read with a type it does not have.
"""),
    Code("E0210", "bad action text", """
An action's `says` template refers to a name that is not one of its parameters or `actor`, or
two actions of one game could print the same text. Action texts are how scenarios and players
name actions, so each must be unambiguous.
"""),
    Code("E0211", "recursion", """
Functions and procedures may not call themselves, directly or through others, and a trigger may
not raise the event it listens to, directly or through other triggers: every rule must terminate,
and the compiler proves it by forbidding recursion and unbounded loops.

When the loop goes through cards' effect texts (a card's text raises the event whose trigger runs
that text again), each such text is reported at its `raise`, in the card set, and the trigger is
named in a note: the card, not the rulebook, is what to change.
"""),
    Code("E0212", "bad players or teams", """
The game header's player counts, seats or teams do not fit together. `players 2..4, 6` lists
the counts a game is for (ranges and single counts, each 1 or more, at most 26); `names` gives
one seat name per seat of the largest count (a smaller game seats the first ones). Teams are
either `teams of SIZE`, where SIZE may read options and must divide every count it is used
with, or a list of seats per team, `teams [A, C], [B, D]`, which names every seat of the
largest count exactly once.

    game war {
      players 4, 6
      teams [A, C], [B, D, E]   # F is on no team
    }
"""),
    Code("E0220", "bad seat names for a count", """
`names` with a list per count (`names 2: North, South; 4: North, East, South, West`) gives the
seats of each count of `players`: every count once, one distinct name per seat. A name in the
rules (`current = North`) stands for one seat, so the rules may name only a seat that every
count has at the same place; the others are seats of their count, read by `players`,
`next_in` and the like.

    game bridge {
      players 2, 4
      names 2: North, South; 4: North, East, South, West
    }
    state { first: player = South }   # E0220: South is seat 2 of 2 players, 3 of 4
"""),
    Code("E0213", "ordered by where order is not used", """
`ordered by KEY [asc|desc]` says in which order a `for` loop visits its elements, or which
element `first(...)` and `list(...)` see first: `first(q for q in players where not q.out
ordered by q.tokens desc)`. In `sum`, `count`, `min`, `max`, `any` and `all` the order changes
nothing, so it is refused there; in a `for` statement and in `first` and `list` it is allowed.
The key is an int; ties keep the domain's order (seat order for players).
"""),
    Code("E0214", "reveal to a player shows nothing", """
`reveal CARDS to PLAYER` shows cards to that player only, until they move. It needs cards of a
`secret` zone: only there do the other players see the cards revealed to them (and a count of
the rest). A `public` zone is seen by everyone already; an `owner` or `hidden` zone shows the
others a count only, and a `private` zone not even that, so the reveal would show nothing.

    zone hand: Role owner per player
    reveal hand[t] to actor        # E0214: declare it 'zone hand: Role secret per player'
"""),
    Code("E0217", "player counts that depend on options", """
A `players ... if CONDITION` line gives counts that hold only when its condition does, so a
game's counts can depend on its options. The condition is worked out before the game has a
state, so it may read the options, enum members and literals only (not a field, a zone or a
function), and with the default options at least one `players` line must hold: otherwise
`new_game()` with no options could not start a game of any size.

    game duel_or_brawl {
      players 2 if mode == duel
      players 3..4 if mode == brawl
      players 6 if score > 0         # E0217: 'score' is a field, not an option
      option mode: Mode = duel
    }
"""),
    Code("E0218", "per team where there are no teams", """
`zone NAME: CARDTYPE ... per team` is one zone for each team, which any player of the team
names (`pool[p]`, p any teammate). It needs teams in the game header (`teams of 2`, or
`teams [A, C], [B, D]`): without them every player is a team of one, and `per player` says so.
A zone is per team or per player, not both: for a zone of each player that the teammates
see, write `team per player`.

    game duel { players 2 }
    zone pool: Chip team per team          # E0218: the game has no teams
    zone pool: Chip team per player        # each player's, seen by its teammates
"""),
    Code("E0219", "reveal to a team written as no form", """
`reveal CARDS to WHOM` shows cards to some players only, until they move. WHOM is a player, or
a list of players: a team is shown cards as the list of its players. There is no
`team of p` form:

    reveal hand[t] to team of actor        # E0219
    reveal hand[t] to allies(actor)        # the actor's teammates still in
    reveal hand[t] to [actor] + allies(actor)   # the actor's whole team still in
    reveal hand[t] to actor                # the actor alone
"""),
    Code("E0301", "phase has no way on", """
Nothing in the phase moves to another phase with `goto` or ends the game: not its `on enter` or
`on done` blocks, not its actions or its own `checkpoint { }` blocks (these count when the phase
has an `actor`), and not a global `checkpoint`. The game would stop, or loop, with nobody able to
move it on. A win condition in a checkpoint is a way on.

`on done` runs only when the phase's `actor` gives `none`; for a phase whose actor always names a
player, move on from an action or a checkpoint instead.
"""),
    Code("E0302", "setup missing", """
The rulebook has no `setup { }` block, or it never moves to a first phase with `goto`.
"""),
    Code("E0303", "game never ends", """
No statement anywhere ends the game (`win`, `lose` or `end in draw`), so no play can finish.
"""),
    Code("W0221", "choices list cards the actor may not see", """
An action's parameter takes its values from another player's zone that is not public (owner,
secret, private or team): `legal_actions()` lists one action per card there, so the actor, and
`rulecraft play`, `serve` and every agent, read which cards that player holds.

    action guess(t: player in opponents(actor), c: Card in hand[t])   # W0221: names t's cards

Let the actor choose something they can see: a value to guess (`g: Role`), or reveal the zone
to them first. A zone of the actor's own (`hand[actor]`) is theirs to see.
"""),
    Code("W0301", "unreachable phase", """
No `goto` reachable from `setup` leads to this phase, so none of its rules can ever apply.
"""),
    Code("W0302", "action never available", """
The action belongs to a phase that is unreachable, or the phase has no `actor`, so no player can
ever take it.
"""),
    Code("W0303", "trigger never fires", """
The trigger listens for an event that no reachable rule raises.
"""),
    Code("W0304", "zone never entered", """
No `move`, `draw` or `create` ever puts a card into this zone.
"""),
    Code("W0305", "unused declaration", """
A function, procedure, event, enum, record, zone or field is declared but never used.
"""),
    Code("W0306", "seed rule not covered", """
A rule listed in the `seed { }` block is neither referenced by an `@ID` annotation nor marked
`omitted "reason"`. Every rule of the seed document is either encoded or explained.
"""),
    Code("E0401", "data file problem", """
A data file the rulebook loads (a map) cannot be used: it is missing, outside the rulebook's
folder, not valid YAML, or its content does not have the documented shape.
"""),
    Code("E0402", "statement has no effect", """
An expression statement does nothing: only calls of procedures can stand alone as statements.

Newlines do not end statements, so words written after a statement that has no form for them
are read as statements of their own. The error is then reported once, at those words, with the
forms the statement has:

    shuffle pile from top   # 'shuffle' has no 'from' form: it is written 'shuffle ZONE'
"""),
    Code("E0403", "card set problem", """
A card set file (`*.cards.yaml`) does not have the documented shape: it must be a YAML mapping
with `cards:`, a list of cards, each a mapping with a `name`, an optional `description`, and
values for the card type's fields. `type:` names the card type when the rulebook has several.
YAML tags (`!!python/...`) and anchors are refused: card sets are data, never code.

    type: Card
    cards:
      - name: Ember Scout
        cost: 1
        keywords: [first_strike]
        effect: |
          damage(opponent(you), 1)
"""),
    Code("E0404", "deck file problem", """
A deck file (`*.deck.yaml`) does not have the documented shape, or names a card that no card
set or data block defines. A deck maps card names to how many copies it holds:

    name: Red Rush
    cards:
      Crimson Kingdom: 1
      Ember Scout: 2
"""),
    Code("W0401", "deck lists a card with errors", """
A deck file lists a card that its card set gives, but that was dropped because it has errors (for
example an effect that does not parse; that error is reported at the card). The deck is not
checked against the deck rules until the card compiles.
"""),
    Code("E0405", "deck breaks a deck rule", """
A deck file breaks one of the rulebook's deck-construction rules (`deck Card { require ... }`).
The message is the rule's own text; the note points at the rule in the rulebook.
"""),
    Code("E0406", "card can never be played", """
A card definition fails a `require` of its card type, checked when the card set is compiled:
for example a cost above the mana cap. Such a card could sit in a deck but never be played.

    card Card {
      cost: int = 0
      require cost <= 12 else "its cost is above the 12-mana cap"
    }
"""),
    Code("E0407", "effect reaches a zone it may not", """
An effect names a zone that is not in the `reaches` list of its field's type. The list says
which zones a card type's effects can touch; anything else is a designer error.

    card Spell { effect: effect(you: player) reaches hand, graveyard = {} }
"""),
    Code("W0408", "card text does not fit its face", """
`rulecraft build` draws each card's face (a poker-size card, 63 x 88 mm) for the HTML
rulebook's gallery and `rulecraft print`: its name, cost, fields and the English of its
effects, set smaller until it fits. This card's text does not fit even at the smallest size,
so its face is cut short (the gallery's table below the faces still lists every field).
Shorten the card's text or name, or split its effect.
"""),
    Code("W0409", "card face layout cannot be used", """
A card type's face layout, `faces/<CardType>.svg.j2` beside the rulebook, is a Jinja2 template
of an SVG. This one has a syntax error, or failed while drawing a card (a name it does not
know, an operation the sandbox refuses), so the gallery uses the default face for that type.
A template sees `card` (name, type, stats, fields, text, flavour), `width`, `height` and
`wrap(text, width, size)`:

    <svg xmlns="http://www.w3.org/2000/svg" width="{{ width }}" height="{{ height }}">
      <text x="10" y="20">{{ card.name }}</text>
    </svg>
"""),
    Code("E0410", "deck rules fail on a deck", """
Running the deck-construction rules on a shipped deck failed: a rule divides by a number that is
0 for this deck, for example the size of an empty side deck. The note points at the rule. Make
the rule hold for any deck, for instance by dividing only when the divisor is not 0:

    deck Card {
      if size(side) > 0 {
        require sum(c.cost for c in side) / size(side) <= 4 else "the side deck is too dear"
      }
    }
"""),
]

CODES: dict[str, Code] = {entry.code: entry for entry in _ENTRIES}


def explain(code: str) -> str | None:
    entry = CODES.get(code.upper())
    if entry is None:
        return None
    return f"{entry.code}: {entry.title}\n{entry.explanation.rstrip()}\n"
