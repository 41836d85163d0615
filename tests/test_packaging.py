"""Every install form works away from the source tree: a wheel and an sdist, each installed in a
fresh virtual environment, check, test, build and play a shipped game from a folder outside this
repository, make a new game from the packaged templates, and load a game through the public API
(`import compiler`). (The editable form is what the rest of the suite and CI run.)

Slow (two virtual environments and an install each), so it runs in the soak tier of `.ci/run`.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.soak


def run(argv: list[str], cwd: Path) -> str:
    """Run a command that must succeed; its whole output (summaries go to stderr)."""
    result = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=600)
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"{' '.join(argv)}\n{output}"
    return output


@pytest.fixture(scope="module")
def distributions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """An sdist, and a wheel built from that sdist (so the sdist must hold everything)."""
    out = tmp_path_factory.mktemp("dist")
    source = tmp_path_factory.mktemp("source") / "rulecraft"
    # Build from a copy: the build writes build/ and *.egg-info beside the sources.
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", "build", "*.egg-info", "__pycache__", ".mypy_cache", ".ruff_cache"))
    run([sys.executable, "-m", "build", "--outdir", str(out), str(source)],
        cwd=out)
    return {"wheel": next(out.glob("*.whl")), "sdist": next(out.glob("*.tar.gz"))}


@pytest.mark.parametrize("form", ["wheel", "sdist"])
def test_an_installed_rulecraft_checks_tests_builds_and_plays_a_game_outside_the_repository(
    form: str, distributions: dict[str, Path], tmp_path: Path,
) -> None:
    env = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env)  # no system site-packages: no editable install
    bin_dir = env / "bin"
    run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet",
         str(distributions[form])], cwd=tmp_path)
    game = tmp_path / "elsewhere" / "dynasties"
    shutil.copytree(ROOT / "rulebooks" / "dynasties", game)
    rulecraft = str(bin_dir / "rulecraft")

    checked = run([rulecraft, "check", str(game)], cwd=tmp_path)
    assert "0 errors" in checked
    tested = run([rulecraft, "test", str(game)], cwd=tmp_path)
    assert " 0 failed" in tested
    run([rulecraft, "build", str(game), "-o", str(tmp_path / "out")], cwd=tmp_path)
    assert (tmp_path / "out" / "dynasties.py").is_file()
    assert (tmp_path / "out" / "docs" / "dynasties.html").is_file()
    played = run([rulecraft, "simulate", str(game), "-n", "3"], cwd=tmp_path)
    assert played.strip()
    # `rulecraft new` writes its templates, package data of `compiler`, and the game checks.
    run([rulecraft, "new", "mygame"], cwd=tmp_path)
    assert "0 errors" in run([rulecraft, "check"], cwd=tmp_path / "mygame")
    # The public API is `compiler`, and `python -m compiler` is the command.
    loaded = run([str(bin_dir / "python"), "-c",
         "import compiler\n"
         f"print(compiler.load_game({str(game)!r}).INFO['name'])"], cwd=tmp_path)
    assert loaded.strip() == "dynasties"
    assert "rulecraft" in run([str(bin_dir / "python"), "-m", "compiler", "--version"],
                              cwd=tmp_path)
    # The shipped modules run on the installed runtime alone.
    returns = run([str(bin_dir / "python"), "-c",
         "import generated.dynasties as g\n"
         "s = g.new_game(seed=1, players=2, options={})\n"
         "while not s.is_terminal(): s.apply_action(s.legal_actions()[0])\n"
         "print(s.returns())"], cwd=tmp_path)
    assert returns.startswith("[")


def test_the_wheel_ships_the_pdf_font_and_its_licence(distributions: dict[str, Path]) -> None:
    import zipfile

    names = set(zipfile.ZipFile(distributions["wheel"]).namelist())
    for font in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf",
                 "LICENSE-DejaVu.txt"):
        assert f"compiler/fonts/{font}" in names, font
