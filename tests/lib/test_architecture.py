"""The package's shape: no import cycles, no hidden imports inside functions, small files.

The module graph is read from the source (ast), so a cycle cannot hide behind
an import that happens to be executed late.
"""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

LIB = Path(__file__).resolve().parents[2] / "lib"
PKG = LIB / "robonum"
MAX_LINES = 330  # "small files (~300 lines)"; a little slack for docstrings


def _module_name(path: Path) -> str:
    rel = path.relative_to(LIB).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PKG.rglob("*.py"))}


def _resolve(module: str, is_pkg: bool, node: ast.ImportFrom) -> list[str]:
    base = module.split(".") if is_pkg else module.split(".")[:-1]
    if node.level:
        base = base[: len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    if not target.startswith("robonum"):
        return []
    out = []
    for alias in node.names:
        sub = f"{target}.{alias.name}"
        out.append(sub if sub in MODULES else target)
    return out


def _imports(name: str, path: Path):
    """(module-level robonum imports, function-level robonum imports) of one module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    top, nested = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            targets = _resolve(name, is_pkg, node)
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names if a.name.startswith("robonum")]
        else:
            continue
        if node in tree.body:
            top.update(targets)
        elif targets:
            nested.append((node.lineno, targets))
    return top, nested


GRAPH = {}
NESTED = {}
for _name, _path in MODULES.items():
    GRAPH[_name], NESTED[_name] = _imports(_name, _path)


def test_the_graph_was_read():
    assert "robonum.integrate" in GRAPH and "robonum.steppers" in GRAPH["robonum.integrate"]


def test_no_import_cycles():
    # A module importing its own package __init__ (from . import x) is not a cycle by itself:
    # only edges between distinct modules count, parents excluded.  Importing a.b.c runs the
    # __init__ of a.b first, so that package is an edge too (unless m lives inside it):
    # explore.exploration -> book.exercise_views ran book/__init__ -> book.bench -> explore.
    def packages(t):
        parts = t.split(".")
        return {".".join(parts[:k]) for k in range(2, len(parts))}

    def edges(m):
        targets = set(GRAPH[m]).union(*(packages(t) for t in GRAPH[m]))
        return {t for t in targets if t != m and not m.startswith(t + ".") and t in GRAPH}

    state, stack, cycles = {}, [], []

    def visit(m):
        state[m] = "active"
        stack.append(m)
        for t in sorted(edges(m)):
            if state.get(t) == "active":
                cycles.append(stack[stack.index(t) :] + [t])
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = "done"

    for m in sorted(GRAPH):
        if m not in state:
            visit(m)
    assert cycles == [], "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_no_robonum_imports_hidden_in_functions():
    hidden = {m: n for m, n in NESTED.items() if n}
    assert hidden == {}, f"imports inside functions (move them to module level): {hidden}"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_files_stay_small(name):
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{MODULES[name].relative_to(LIB)} has {lines} lines; split it"


# -- two layers: the numerical core, and the book layer on top of it ----------------------------
BOOK_LAYER = ("robonum.book", "robonum.explore", "robonum.plotting")
HEAVY = ("matplotlib", "IPython", "ipywidgets", "myst_nb", "nbformat", "numba", "scipy")


def _in_layer(module: str) -> bool:
    return any(module == b or module.startswith(b + ".") for b in BOOK_LAYER)


def test_the_core_never_imports_the_book_layer():
    core = {
        m: sorted(t for t in GRAPH[m] if _in_layer(t))
        for m in GRAPH
        if not _in_layer(m) and m != "robonum"
    }
    offenders = {m: t for m, t in core.items() if t}
    assert offenders == {}, f"core modules importing the book layer: {offenders}"
    # the package __init__ reaches the layer only through its lazy __getattr__
    assert not any(_in_layer(t) for t in GRAPH["robonum"])


def test_the_book_layer_is_what_the_package_declares():
    import robonum

    assert tuple(f"robonum.{n}" for n in robonum.BOOK_LAYER) == BOOK_LAYER
    assert all(m in MODULES for m in BOOK_LAYER)


def _fresh_python(code: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(LIB))
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stderr


def test_import_robonum_loads_numpy_only():
    """``python -X importtime -c "import robonum"``: no plotting, notebook or JIT package is
    loaded, and SciPy's modules wait for first use (``robonum._scipy``)."""
    log = _fresh_python("import robonum")
    loaded = {line.split("|")[-1].strip() for line in log.splitlines() if "|" in line}
    heavy = sorted(m for m in loaded if m.split(".")[0] in HEAVY)
    assert heavy == [], f"import robonum loads {heavy[:8]}"
    assert not any(_in_layer(m) for m in loaded)
    # the domain packages the step loop does not need wait for first use too (30 ms)
    import robonum

    first_use = robonum.ON_FIRST_USE
    early = sorted(m for m in loaded if m.startswith("robonum.") and m.split(".")[1] in first_use)
    assert early == [], f"import robonum loads {early[:8]}"


def test_the_book_layer_loads_on_first_use():
    log = _fresh_python("import robonum as rn; rn.book.glue; rn.plotting; rn.explore")
    assert "robonum.book.glue" in log and "matplotlib" in log
