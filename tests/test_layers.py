"""The layers import one way: `dsl/` (the language and the runtime) never imports `compiler/`
(the passes, the back ends, the driver, the API and the CLI), generated modules import only
the standard library and `dsl.runtime`, and the runtime (`dsl.runtime` and its modules
`dsl.runtime_*`) imports only the standard library and itself.

The imports are read from the source, not from a run: every `import` and `from ... import`
anywhere in a file (inside functions too), every `importlib.import_module("...")` or
`__import__("...")` of a string, and every string that names a module of `compiler`
(`"compiler.api"`, in a table of lazy re-exports as `dsl/__init__.py` once had).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DSL = sorted((ROOT / "dsl").rglob("*.py"))
GENERATED = sorted((ROOT / "generated").glob("*.py"))
# the runtime that generated modules import: dsl/runtime.py and the modules it is made of
RUNTIME = [path for path in DSL if path.stem == "runtime" or path.stem.startswith("runtime_")]


# a string that names a compiler module, as a table of lazy re-exports holds it
COMPILER_MODULE = re.compile(r"compiler(\.[a-z_]+)+")


def module_name(path: Path) -> str:
    """`dsl/runtime.py` → `dsl.runtime`, `dsl/__init__.py` → `dsl`."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """(line, module) for every module the source imports, or may import, anywhere in it.
    `from a import b` counts as a.b (b may be a submodule); relative imports are resolved
    against module."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            found.append((node.lineno, base))
            found.extend((node.lineno, f"{base}.{alias.name}") for alias in node.names
                         if alias.name != "*")
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            if (name in ("import_module", "__import__") and isinstance(first, ast.Constant)
                    and isinstance(first.value, str)):
                found.append((node.lineno, first.value))
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and COMPILER_MODULE.fullmatch(node.value)):
            found.append((node.lineno, node.value))
    return found


def is_compiler_module(name: str) -> bool:
    return name == "compiler" or name.startswith("compiler.")


def imports_of(path: Path) -> list[tuple[int, str]]:
    return imports(path.read_text(encoding="utf-8"), module_name(path),
                   path.name == "__init__.py")


# ---- the walk finds every kind of import (so that an empty result means something)
@pytest.mark.parametrize("source", [
    "import compiler.driver",
    "from compiler import api",
    "from compiler.pygen import load_python as load",
    "def f():\n    from compiler import cli\n    return cli",
    "import importlib\nimportlib.import_module('compiler.api')",
    "from importlib import import_module\nimport_module('compiler')",
    "__import__('compiler.cli')",
    "_EXPORTS = {'check': 'compiler.api'}",
    "from ..compiler import api",
    "try:\n    import compiler\nexcept ImportError:\n    pass",
])
def test_the_walk_finds_an_edge_to_compiler_however_it_is_written(source: str) -> None:
    found = imports(source, "dsl.somewhere")
    assert any(is_compiler_module(name) for _, name in found), found


def test_the_walk_does_not_mistake_prose_or_other_modules_for_compiler() -> None:
    source = ('"""Imports nothing from `compiler`; see compiler/api.py."""\n'
              "from dsl import nodes\nimport compilers\nfrom . import source\n"
              "INFO = {'compiler': '0.1.0'}\n")
    found = imports(source, "dsl.somewhere")
    assert not [name for _, name in found if is_compiler_module(name)], found
    assert (4, "dsl.source") in found


# ---- the layers
def test_dsl_has_modules_to_check() -> None:
    names = {module_name(path) for path in DSL}
    assert {"dsl", "dsl.parser", "dsl.nodes", "dsl.runtime", "dsl.diagnostics"} <= names


@pytest.mark.parametrize("path", DSL, ids=lambda path: module_name(path))
def test_dsl_imports_nothing_from_compiler(path: Path) -> None:
    reverse = [f"{path.relative_to(ROOT)}:{line}: {name}" for line, name in imports_of(path)
               if is_compiler_module(name)]
    assert not reverse, "dsl/ must not import compiler/:\n" + "\n".join(reverse)


@pytest.mark.parametrize("path", GENERATED, ids=lambda path: path.stem)
def test_generated_modules_import_only_the_standard_library_and_the_runtime(path: Path) -> None:
    allowed = {"dsl", "dsl.runtime"}
    others = []
    for line, name in imports_of(path):
        top = name.partition(".")[0]
        within_runtime = name.startswith("dsl.runtime.")  # from dsl.runtime import Action
        if name in allowed or within_runtime or top in sys.stdlib_module_names:
            continue
        others.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    assert not others, "a generated module imports more than the runtime:\n" + "\n".join(others)


@pytest.mark.parametrize("path", [*GENERATED, ROOT / "tests" / "golden" / "mini.py"],
                         ids=lambda path: path.stem)
def test_generated_modules_use_only_the_names_the_runtime_exports(path: Path) -> None:
    """`rt.NAME` in generated code is the runtime's contract: dsl.runtime's `__all__`."""
    from dsl import runtime

    used = set(re.findall(r"\brt\.([A-Za-z_]\w*)", path.read_text(encoding="utf-8")))
    missing = sorted(used - set(runtime.__all__))
    assert not missing, f"{path.relative_to(ROOT)} uses rt.{', rt.'.join(missing)}"


@pytest.mark.parametrize("path", RUNTIME, ids=lambda path: module_name(path))
def test_the_runtime_imports_only_the_standard_library_and_itself(path: Path) -> None:
    runtime = {module_name(other) for other in RUNTIME}
    others = [f"{path.relative_to(ROOT)}:{line}: {name}" for line, name in imports_of(path)
              if name.partition(".")[0] not in sys.stdlib_module_names
              and name not in runtime and name.rpartition(".")[0] not in runtime]
    assert not others, ("the runtime imports more than the standard library and itself:\n"
                        + "\n".join(others))


# the Python generator is compiler/pygen.py and the layers it builds on (compiler/pygen_*.py)
PYGEN = sorted(path.stem for path in (ROOT / "compiler").glob("pygen*.py"))


@pytest.mark.parametrize(("module", "forbidden", "why"), [
    *((f"compiler/{stem}.py", "compiler.typecheck",
       "the Python generator reads the checked model, not the checker") for stem in PYGEN),
    ("compiler/docgen.py", "compiler.pygen",
     "the docs generator shares the rule walk (compiler.ast_walk), not the Python generator"),
    ("compiler/doc_gallery.py", "compiler.pygen",
     "the card gallery writes English (compiler.english), not the Python generator"),
    *((f"compiler/{stem}.py", "compiler.check",
       "the Python generator reads the checked model, not the checker's passes")
      for stem in PYGEN),
], ids=[*(f"{stem}-typecheck" for stem in PYGEN), "docgen-pygen", "doc_gallery-pygen",
        *(f"{stem}-check" for stem in PYGEN)])
def test_the_back_ends_do_not_reach_sideways(module: str, forbidden: str, why: str) -> None:
    found = [line for line, name in imports_of(ROOT / module)
             if name == forbidden or name.startswith((forbidden + ".", forbidden + "_"))]
    assert not found, f"{module} imports {forbidden} (lines {found}): {why}"


# ---- the public API
def test_the_public_api_is_compiler_and_dsl_exports_only_the_language() -> None:
    import compiler
    import dsl

    for name in ("check", "build_all", "load_game", "rulebook_path", "GameNotFound",
                 "Diagnostic", "render", "Action", "IllegalAction", "RuleError"):
        assert name in compiler.__all__
        assert getattr(compiler, name) is not None
    assert compiler.Action is dsl.Action
    assert compiler.Diagnostic is dsl.Diagnostic
    assert sorted(dsl.__all__) == ["Action", "Diagnostic", "IllegalAction", "RuleError", "render"]
    for name in ("check", "build_all", "load_game", "rulebook_path", "GameNotFound"):
        assert not hasattr(dsl, name)


def test_importing_the_api_or_a_generated_module_stays_light() -> None:
    """`import compiler` loads none of the compiler until a name is used, and a generated
    module loads the runtime (dsl.runtime and its modules) alone."""
    code = ("import sys, compiler, generated.dynasties\n"
            "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('compiler', 'dsl', 'lark', 'jinja2', 'yaml'))))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, check=True)
    runtime = sorted(module_name(path) for path in RUNTIME)
    assert "dsl.runtime" in runtime
    assert result.stdout.split() == ["compiler", "dsl", *runtime]
