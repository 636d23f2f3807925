"""Adapt SciPy's own ``test_ivp.py`` so that its calls go to ``robonum.solve_ivp``.

SciPy's test suite is a specification written by others: it is read from the
installed scipy at test time and never copied into this repository.  The
adaptation only redirects calls and method names (``RK23``/``RK45``/``Radau``/``BDF`` ->
``bs23``/``dopri5``/``radau5``/``bdf``) and splits loops over methods (and the other
factors of the same ``product``) into parametrized tests, so that each case
passes or fails on its own.  Cases for methods robonum lacks are skipped, and
tests of SciPy's private helpers are skipped with the reason given below.

The rewrite is done on the syntax tree; where the file no longer has the shape
this module expects, :class:`AdaptError` says what it expected.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

SPEC_MODULE = "scipy.integrate._ivp.tests.test_ivp"

# SciPy's solver (class or name) -> robonum's method name.
ROBONUM_NAME = {"RK23": "bs23", "RK45": "dopri5", "Radau": "radau5", "BDF": "bdf"}
SCIPY_ONLY = {"DOP853", "LSODA"}  # cases for these are skipped

# Tests that exercise SciPy internals, not solve_ivp's contract: skipped, with why.
NOT_APPLICABLE = {
    "test_ConstantDenseOutput": "SciPy's private ConstantDenseOutput class",
    "test_OdeSolution": "SciPy's OdeSolution class built by hand from ConstantDenseOutput",
    "test_num_jac": "SciPy's private finite-difference helper num_jac",
    "test_num_jac_sparse": "SciPy's private num_jac and group_columns",
    "test_inital_maxstep": "SciPy's private select_initial_step and error_estimator_order",
    "test_event_dense_output_LSODA": "LSODA only (robonum has no LSODA)",
}

# The import the adapter redirects, and what replaces it.  The shim module gives
# the class names RK23/RK45/Radau/BDF (passed as ``method=`` or called like SciPy's
# solver classes) as robonum method names that build ``rn.IVPSolver``.
SCIPY_IMPORT = "from scipy.integrate import solve_ivp, ..."
ROBONUM_IMPORTS = "from robonum import solve_ivp\nfrom scipy_spec.shim import " + ", ".join(
    ROBONUM_NAME
)


class AdaptError(RuntimeError):
    """SciPy's test file changed so that the adaptation no longer applies."""


def spec_source() -> tuple[Path, str]:
    """The installed scipy's ``test_ivp.py`` (path, text)."""
    spec = importlib.util.find_spec(SPEC_MODULE)
    if spec is None or spec.origin is None:
        raise AdaptError(f"expected {SPEC_MODULE} in the installed scipy (tests not shipped?)")
    path = Path(spec.origin)
    return path, path.read_text()


def adapt(source: str) -> str:
    """The adapted test module's source."""
    tree = ast.parse(source)
    _rename_method_strings(tree)
    _redirect_import(tree)
    tests = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    for name, reason in NOT_APPLICABLE.items():
        if name not in tests:
            raise AdaptError(f"expected a test {name} ({reason}) in test_ivp.py")
        tests[name].decorator_list.insert(0, _expr(f"pytest.mark.skip(reason={reason!r})"))
    for name, func in tests.items():
        if name.startswith("test_") and name not in NOT_APPLICABLE:
            _split_method_parametrize(func)
            _hoist_loops(func)
            _check_no_method_loop_left(func)
    return ast.unparse(ast.fix_missing_locations(tree))


# --- method names -------------------------------------------------------------


def _rename_method_strings(tree: ast.AST) -> None:
    """'RK45' -> 'dopri5' etc. everywhere, so comparisons in the bodies stay consistent."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in ROBONUM_NAME:
            node.value = ROBONUM_NAME[node.value]


def _is_method(node: ast.AST) -> bool:
    known = set(ROBONUM_NAME) | SCIPY_ONLY
    if isinstance(node, ast.Constant):
        return node.value in set(ROBONUM_NAME.values()) | SCIPY_ONLY
    return isinstance(node, ast.Name) and node.id in known


def _is_method_list(node: ast.AST) -> bool:
    return (
        isinstance(node, (ast.List, ast.Tuple))
        and bool(node.elts)
        and all(_is_method(e) for e in node.elts)
    )


def _robonum_method(node: ast.AST) -> str | None:
    """robonum's name for a method element, None for a method robonum lacks."""
    if isinstance(node, ast.Name):
        return ROBONUM_NAME.get(node.id)
    return None if node.value in SCIPY_ONLY else node.value


def _redirect_import(tree: ast.Module) -> None:
    """``from scipy.integrate import solve_ivp, RK45, ...`` -> robonum's solve_ivp and names."""
    for i, stmt in enumerate(tree.body):
        if not isinstance(stmt, ast.ImportFrom) or stmt.module != "scipy.integrate":
            continue
        names = [a.name for a in stmt.names]
        if "solve_ivp" in names:
            if not set(ROBONUM_NAME) <= set(names):
                raise AdaptError(f"expected {SCIPY_IMPORT} to import {sorted(ROBONUM_NAME)}")
            kept = [n for n in names if n != "solve_ivp" and n not in ROBONUM_NAME]
            new = ast.parse(f"from scipy.integrate import {', '.join(kept)}\n{ROBONUM_IMPORTS}")
            tree.body[i : i + 1] = new.body
            break
    else:
        raise AdaptError(f"expected a top-level `{SCIPY_IMPORT}` in test_ivp.py")
    for node in ast.walk(tree):  # a second, local import would bypass the redirect
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("scipy"):
            if "solve_ivp" in [a.name for a in node.names]:
                raise AdaptError("expected solve_ivp imported from scipy only once, at the top")


# --- parametrization ------------------------------------------------------------


def _expr(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def _label(node: ast.AST) -> str:
    """A readable test-id part for one loop value, from its source text."""
    if _is_method(node):
        return _robonum_method(node) or ast.unparse(node).strip("'")
    return ast.unparse(node).replace(" ", "")


def _params(values: list[ast.AST], index: bool) -> str:
    """``[pytest.param(...), ...]`` source; cases for methods robonum lacks are skipped.

    With ``index`` the parameter is the value's position in the loop's list (the
    list may name local variables, which a decorator cannot see).
    """
    items = []
    for i, node in enumerate(values):
        value = str(i) if index else ast.unparse(node)
        mark = ""
        if _is_method(node) and _robonum_method(node) is None:
            mark = f", marks=pytest.mark.skip(reason='robonum has no {_label(node)}')"
        items.append(f"pytest.param({value}, id={_label(node)!r}{mark})")
    return "[" + ", ".join(items) + "]"


def _split_method_parametrize(func: ast.FunctionDef) -> None:
    """``@pytest.mark.parametrize('method', [...])``: ids are robonum's names, others skipped."""
    for deco in func.decorator_list:
        if not (isinstance(deco, ast.Call) and ast.unparse(deco.func).endswith("parametrize")):
            continue
        argname, values = deco.args[0], deco.args[1]
        if isinstance(argname, ast.Constant) and argname.value == "method":
            if not _is_method_list(values):
                raise AdaptError(f"{func.name}: expected a literal method list to parametrize")
            deco.args[1] = _expr(_params(values.elts, index=False))


class _Loops:
    """The loops of one test hoisted into parameters: name -> the list's source."""

    def __init__(self, func: ast.FunctionDef):
        self.func, self.lists = func, {}

    def hoist(self, loop: ast.For) -> None:
        """``for x, m in product(A, M)`` -> ``for x, m in [(A[_x], M[_m])]`` over parameters."""
        targets = loop.target.elts if isinstance(loop.target, ast.Tuple) else [loop.target]
        factors = loop.iter.args if _is_product(loop.iter) else [loop.iter]
        if len(targets) != len(factors) or not all(isinstance(t, ast.Name) for t in targets):
            raise AdaptError(f"{self.func.name}: expected `for a, b in product(A, B)` loops")
        picks = [self._parameter(t.id, f) for t, f in zip(targets, factors, strict=True)]
        tuple_src = f"({', '.join(picks)},)" if len(picks) > 1 else picks[0]
        loop.iter = _expr(f"[{tuple_src}]")  # one pass: `continue` in the body stays valid
        loop.hoisted = True

    def _parameter(self, name: str, values: ast.AST) -> str:
        if not isinstance(values, (ast.List, ast.Tuple)):
            raise AdaptError(f"{self.func.name}: expected a literal list to loop over")
        param, src = f"_{name}", ast.unparse(values)
        if self.lists.setdefault(param, src) != src:  # two loops share a parameter
            raise AdaptError(f"{self.func.name}: expected every `for {name}` over {src}")
        return f"{src}[{param}]"

    def decorate(self) -> None:
        """One parametrize per loop variable, ids in the order of the source."""
        for param, src in reversed(self.lists.items()):
            values = _expr(src).elts
            deco = _expr(f"pytest.mark.parametrize({param!r}, {_params(values, index=True)})")
            self.func.decorator_list.append(deco)
            self.func.args.args.append(ast.arg(arg=param))


def _is_product(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and ast.unparse(node.func) == "product"


def _loops_over_methods(node: ast.AST) -> bool:
    if not isinstance(node, ast.For):
        return False
    factors = node.iter.args if _is_product(node.iter) else [node.iter]
    return any(_is_method_list(f) for f in factors)


def _hoist_loops(func: ast.FunctionDef) -> None:
    """Each top-level loop over methods, and a single loop nested right inside it."""
    loops = _Loops(func)
    for stmt in func.body:
        if _loops_over_methods(stmt):
            loops.hoist(stmt)
            inner = [s for s in stmt.body if not _is_skip_if(s)]
            if len(inner) == 1 and isinstance(inner[0], ast.For):
                loops.hoist(inner[0])  # test_max_step: for method ...: for t_span ...
    loops.decorate()


def _is_skip_if(stmt: ast.stmt) -> bool:
    """``if method is LSODA and ...: continue``"""
    return isinstance(stmt, ast.If) and [type(s) for s in stmt.body] == [ast.Continue]


def _check_no_method_loop_left(func: ast.FunctionDef) -> None:
    for node in ast.walk(func):
        if _loops_over_methods(node) and not getattr(node, "hoisted", False):
            raise AdaptError(
                f"{func.name} line {node.lineno}: expected loops over methods only as a "
                "top-level `for` of the test body (to split them into parametrized tests)"
            )
