"""Every cap on the caller is documented once, with its value and reason (lib/README.md, "Limits").

The constants are read from the source (ast): a new ``MAX_*``/``*_MAX`` constant
that is not in the table, or a table row whose value no longer matches the
code, fails here.
"""

import ast
import importlib
import re
from pathlib import Path

import pytest

LIB = Path(__file__).resolve().parents[2] / "lib"
README = (LIB / "README.md").read_text(encoding="utf-8")
SECTION = README.split("## Limits: every cap and why", 1)[-1].split("\n## ", 1)[0]
ROWS = re.findall(r"^\| `([\w.]+)\.(\w+)` \| `([^`]+)` \| (.+) \|$", SECTION, re.M)
# Names with MAX in them that limit no caller (the paragraph under the table says what they are)
NOT_CAPS = {
    "MAX_ORDER@robonum.steppers.bdf_variable",
    "NEWTON_MAXITER",
    "JAC_MAX_AGE",
    "DBL_MAX",
    "EXP_MAX",
    "COSH_MAX",
    "Z_MAX",
    "MAX_RADIOS",
    "MAX_STEPS@robonum.fast.driver",
    "FAC_MAX",
}


def _constants():
    """``(module, name)`` of every public module-level constant named like a cap."""
    found = []
    for path in sorted((LIB / "robonum").rglob("*.py")):
        rel = path.relative_to(LIB).with_suffix("")
        module = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.Assign):
                continue
            target = node.targets[0]
            names = [t for t in getattr(target, "elts", [target]) if isinstance(t, ast.Name)]
            for name in (t.id for t in names):
                if not name.startswith("_") and re.fullmatch(
                    r"MAX_\w+|\w+_MAX(_\w+)?|\w*MAXITER", name
                ):
                    found.append((module, name))
    return found


CONSTANTS = _constants()


def test_the_table_was_read():
    assert len(ROWS) >= 40 and len(CONSTANTS) >= len(ROWS)


@pytest.mark.parametrize("module, name, value, why", ROWS, ids=[f"{m}.{n}" for m, n, _, _ in ROWS])
def test_each_row_states_the_value_in_the_code_and_a_reason(module, name, value, why):
    mod = importlib.import_module(f"robonum.{module}")
    assert eval(value, vars(mod)) == getattr(mod, name)  # noqa: S307 -- our own README
    assert len(why.split()) >= 3, f"{module}.{name}: say why"


@pytest.mark.parametrize("module, name", CONSTANTS, ids=[f"{m}.{n}" for m, n in CONSTANTS])
def test_each_cap_in_the_code_is_in_the_table(module, name):
    if name in NOT_CAPS or f"{name}@{module}" in NOT_CAPS:
        assert name in SECTION, f"{name} is not a cap: the paragraph under the table says so"
        return
    rows = [m for m, n, _, _ in ROWS if n == name]
    # the row may name the public package that re-exports the constant (finite_diff.HS_MAX)
    assert any(module == f"robonum.{m}" or module.startswith(f"robonum.{m}.") for m in rows), (
        f"{module}.{name} is a cap missing from the Limits table of lib/README.md"
    )
