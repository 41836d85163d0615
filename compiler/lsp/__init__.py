"""`rulecraft lsp`: the language server for `.rules` files and the card sets, decks, maps and
scenarios around them. `analysis` answers the editor's questions from a checked rulebook (it
needs no pygls); `server` speaks the protocol over stdio with pygls."""
