"""`rulecraft serve`: any compiled game played in the browser, by seat, from its module's
observations (session), drawn as HTML (render) from the model's boards and cards (catalogue),
served by Starlette (app)."""
