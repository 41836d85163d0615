"""The Rulecraft grammar (`rulecraft.lark`), shipped as package data so that every install form
(wheel, sdist, editable) finds it with `importlib.resources`."""
