"""Import contracts in CI (issue 18): `lint-imports` checks pyproject's [tool.importlinter] contracts
(the engine knows nothing of gRPC nor of any game, the games nothing of the platform nor of one
another, the dashboard nothing of the rules, arena reaches the referee service through its client,
each game is layered without cycles)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    # --no-cache: a stale cache must not hide a new import
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", "--no-logo", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, check=False)


def test_import_contracts_are_kept() -> None:
    out = lint_imports()
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout, out.stdout


def test_imports_inside_functions_count(tmp_path: Path) -> None:
    """The contracts see an import made inside a function (the usual way to hide a cycle): a package whose
    state module imports its rules only inside a method breaks a contract forbidding it."""
    pkg = tmp_path / "toygame"
    (pkg / "rules").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "rules" / "__init__.py").write_text("")
    (pkg / "rules" / "moves.py").write_text("def play() -> None:\n    pass\n")
    (pkg / "state.py").write_text("def apply() -> None:\n    from .rules import moves\n    moves.play()\n")
    config = tmp_path / "contracts.toml"
    config.write_text("\n".join([
        "[tool.importlinter]", 'root_packages = ["toygame"]', "exclude_type_checking_imports = true",
        "[[tool.importlinter.contracts]]", 'name = "state without rules"', 'type = "forbidden"',
        'source_modules = ["toygame.state"]', 'forbidden_modules = ["toygame.rules"]',
        "allow_indirect_imports = true", ""]))
    out = lint_imports(str(config), cwd=tmp_path)
    assert out.returncode == 1, out.stdout + out.stderr
    report = " ".join(out.stdout.split())  # the report is wrapped to the terminal's width
    assert "toygame.state -> toygame.rules.moves" in report, out.stdout
