"""Systematic bad-input run over every public callable of ``robonum.autodiff``,
``robonum.finite_diff``, ``robonum.arm`` and ``plot_error_vs_h``.

Each case calls one function with a valid baseline except for one parameter,
which gets one value class: NaN, ±inf, 0, a negative number, 1e308, 1e-320,
10**400, True, "abc", None, 1j, [], [[1, 2], [3, 4]], wrong lengths, and
callables that return the wrong shape / NaN / complex / a string, or raise.
A case passes when the call either

* returns, and every number in the result is finite ("works"), or
* raises ``TypeError``, ``ValueError`` or ``RobonumError`` whose message
  names the parameter (for operators and elementary functions: the operation),

with every warning turned into an error: a warning escaping the library, any
other exception type, or a NaN/inf slipping into a result fails the case.
Values that are never valid (NaN, inf, 10**400, bool, str, None) must raise;
``ok=`` lists the classes that must work and ``bad=`` further ones that must
raise; for the rest (e.g. 1e308, which may or may not overflow) either is fine.
"""

import math
import re
import warnings

import matplotlib.pyplot as plt
import numpy as np
import pytest

from robonum import arm
from robonum import finite_diff as fd
from robonum.autodiff import (
    ADCost,
    Dual,
    StepsGradient,
    Tape,
    Var,
    ad_cost,
    checkpoint_counts,
    cos,
    derivative,
    exp,
    grad,
    grad_through_steps,
    jacobian_forward,
    jacobian_reverse,
    log,
    rk4_step,
    sin,
    sqrt,
    tanh,
    trace,
)
from robonum.errors import RobonumError
from robonum.plotting.derivatives import plot_error_model, plot_error_vs_h
from robonum.plotting.graph import plot_graph

NAN, INF = math.nan, math.inf
Q = (0.3, 0.5)


class Fresh:
    """A value built anew for every call (a tape, a stateful callable, an Axes)."""

    def __init__(self, make):
        self.make = make


def _resolve(v):
    return v.make() if isinstance(v, Fresh) else v


VALUES = {
    "nan": NAN,
    "+inf": INF,
    "-inf": -INF,
    "0": 0.0,
    "neg": -1.5,
    "1e308": 1e308,
    "1e-320": 1e-320,
    "10**400": 10**400,
    "True": True,
    "str": "abc",
    "None": None,
    "1j": 1j,
    "[]": [],
    "2-D": [[1.0, 2.0], [3.0, 4.0]],
}
NEVER = {"nan", "+inf", "-inf", "10**400", "True", "str", "None"}


def _first(x):
    return x[0] if isinstance(x, (list, tuple, np.ndarray)) else x


def _changing_count():
    calls = []

    def f(x):
        calls.append(1)
        return [_first(x)] * (1 if len(calls) == 1 else 2)

    return f


# Callables that are wrong in one way each; "const" is valid (zero derivative).
BAD_F = {
    "f:2-D": lambda x: [[_first(x), 1.0], [2.0, 3.0]],
    "f:[]": lambda x: [],
    "f:nan": lambda x: NAN,
    "f:inf": lambda x: INF,
    "f:1j": lambda x: 1j,
    "f:str": lambda x: "abc",
    "f:None": lambda x: None,
    "f:True": lambda x: True,
    "f:10**400": lambda x: 10**400,
    "f:raises": lambda x: 1 / 0,
    "f:count": Fresh(lambda: _changing_count()),
    "f:math": lambda x: math.sin(_first(x)),
    "f:dropsIm": lambda x: abs(_first(x)) ** 2,
    "f:const": lambda x: 3.0,
}
F_VALUES = {**VALUES, **BAD_F}
# f:math / f:dropsIm are valid for real finite differences only; a changing output count
# can be seen only by the drivers that call f more than once (bad=f:count there).
F_NEVER = set(VALUES) | (set(BAD_F) - {"f:const", "f:math", "f:dropsIm", "f:count"})

GROUPS = {}  # (label, param) -> (func, base, pattern, [(class, value, expectation), ...])


def add(
    label, func, base, param, ok="", bad="", extra=None, values=VALUES, never=NEVER, pattern=None
):
    """Register one case per value class for ``param`` of ``func`` (one test per parameter)."""
    ok, bad = set(ok.split()), set(bad.split()) | never
    cases = [
        (cls, value, "ok" if cls in ok else "raise" if cls in bad else "either")
        for cls, value in {**values, **(extra or {})}.items()
    ]
    GROUPS[f"{label}-{param}"] = (func, base, param, pattern or rf"\b{re.escape(param)}\b", cases)


# --- autodiff: elementary functions on every number type ----------------------------
def _var(v):
    return Fresh(lambda: Tape().var(v))


FN_EXTRA = {
    "np[-1.5]": np.array([-1.5]),
    "np[nan]": np.array([NAN]),
    "np[1000]": np.array([1000.0]),
    "np2x2": np.array([[0.5, 1.0], [2.0, 3.0]]),
    "np[True]": np.array([True]),
    "f64(-1)": np.float64(-1.0),
    "f64(nan)": np.float64(NAN),
    "Dual(0)": Dual(0.0, 1.0),
    "Dual(-1)": Dual(-1.0, 1.0),
    "Dual(1000)": Dual(1000.0, 1.0),
    "Dual(1e-320)": Dual(1e-320, 1.0),
    "Var(0)": _var(0.0),
    "Var(-1)": _var(-1.0),
    "Var(1000)": _var(1000.0),
    "c0": 0j,
    "c1000": 1000 + 0j,
    "cnan": complex(NAN, 0.0),
    "cinf-im": complex(0.0, INF),
    "obj": Fresh(lambda: np.array([Dual(0.5, 1.0), 2.0], dtype=object)),
}
ALWAYS_OK = "1j np2x2 obj c1000 1e-320"
ALWAYS_BAD = "[] 2-D np[nan] np[True] f64(nan) cnan cinf-im"
FN_OK = {
    sin: "0 neg 1e308 np[-1.5] np[1000] f64(-1) Dual(0) Dual(-1) Dual(1000) Var(0) Var(-1) c0",
    exp: "0 neg np[-1.5] f64(-1) Dual(0) Dual(-1) Var(0) Var(-1) c0",
    log: "1e308 np[1000] Dual(1000) Var(1000)",
    sqrt: "0 1e308 np[1000] Dual(1000) Var(1000) Dual(1e-320) c0",
}
FN_BAD = {
    sin: "",
    exp: "1e308 np[1000] Dual(1000) Var(1000) c1000",
    log: "0 neg np[-1.5] f64(-1) Dual(0) Dual(-1) Var(0) Var(-1) c0 Dual(1e-320)",
    sqrt: "neg np[-1.5] f64(-1) Dual(0) Dual(-1) Var(0) Var(-1)",
}
FN_OK[cos] = FN_OK[tanh] = FN_OK[sin]
FN_BAD[cos] = FN_BAD[tanh] = FN_BAD[sin]
for fn in (sin, cos, exp, log, sqrt, tanh):
    bad = f"{ALWAYS_BAD} {FN_BAD[fn]}"
    ok = set(f"{ALWAYS_OK} {FN_OK[fn]}".split()) - set(bad.split())  # exp(1000 + 0j) overflows
    add(
        fn.__name__,
        fn,
        {},
        "x",
        ok=" ".join(ok),
        bad=bad,
        extra=FN_EXTRA,
        pattern=rf"\b{fn.__name__}\b",
    )

# --- autodiff: arithmetic operators, each side, both modes ------------------------
OPS = {
    "+": lambda u, w: u + w,
    "-": lambda u, w: u - w,
    "*": lambda u, w: u * w,
    "/": lambda u, w: u / w,
    "**": lambda u, w: u**w,
}
# (must work, must raise) for a constant w next to an AD number with value 1.5.
OP_LEFT = {
    "+": ("0 neg 1e-320", "1j [] 2-D"),
    "-": ("0 neg 1e-320", "1j [] 2-D"),
    "*": ("0 neg 1e-320", "1j [] 2-D"),
    "/": ("neg 1e308", "0 1e-320 1j [] 2-D"),
    "**": ("0 neg 1e-320", "1e308 1j [] 2-D"),
}
OP_RIGHT = {
    "+": OP_LEFT["+"],
    "-": OP_LEFT["-"],
    "*": OP_LEFT["*"],
    "/": ("0 neg 1e308 1e-320", "1j [] 2-D"),
    "**": ("", "0 neg 1e308 1j [] 2-D"),
}
for mode, make, other in (
    ("Dual", lambda: Dual(1.5, 1.0), lambda: Tape().var(2.0)),
    ("Var", lambda: Tape().var(1.5), lambda: Dual(2.0, 1.0)),
):
    extra = {"other-mode": Fresh(other), "np.float64": np.float64(2.0), "int": 2}
    if mode == "Var":
        extra["other-tape"] = Fresh(lambda: Tape().var(2.0))
    for sym, op in OPS.items():
        pat = re.escape(sym)
        add(
            f"{mode}{sym}w",
            op,
            {"u": Fresh(make)},
            "w",
            ok=OP_LEFT[sym][0] + " np.float64 int",
            bad=OP_LEFT[sym][1] + " other-mode other-tape",
            extra=extra,
            pattern=pat,
        )
        add(
            f"w{sym}{mode}",
            lambda u, w, op=op: op(w, u),
            {"u": Fresh(make)},
            "w",
            ok=OP_RIGHT[sym][0] + " np.float64 int",
            bad=OP_RIGHT[sym][1] + " other-mode other-tape",
            extra=extra,
            pattern=pat,
        )

# --- autodiff: constructors and the tape ---------------------------------------------
SCALAR = dict(ok="0 neg 1e308 1e-320", bad="1j [] 2-D")
add("Dual", Dual, {"v": 1.0, "d": 1.0}, "v", **SCALAR)
add("Dual", Dual, {"v": 1.0, "d": 1.0}, "d", **SCALAR)
add("Tape.var", lambda value: Tape().var(value), {}, "value", **SCALAR)
add(
    "Tape.backward",
    lambda output: Tape().backward(output),
    {},
    "output",
    never=set(VALUES),
    extra={"Dual": Dual(1.0, 1.0)},
    bad="Dual",
)
_VAR_BASE = {"v": 1.0, "parents": (), "tape": Fresh(Tape)}
add("Var", Var, _VAR_BASE, "v", **SCALAR)
add("Var", Var, _VAR_BASE, "parents", never=set(VALUES) - {"[]"}, ok="[]")
add("Var", Var, _VAR_BASE, "tape", never=set(VALUES))
_COST = dict(
    n=2,
    m=1,
    forward_passes=2,
    reverse_passes=1,
    reverse_sweeps=1,
    tape_length=5,
    tape_edges=5,
    swept_partials=5,
)
for field in _COST:  # counts: ints >= 0 (0.0 is a float, so "0" may go either way)
    add(
        "ADCost",
        ADCost,
        _COST,
        field,
        ok="int0",
        bad="neg 1e308 1e-320 1j [] 2-D",
        extra={"int0": 0},
    )

# --- autodiff: drivers ---------------------------------------------------------------
VEC_EXTRA = {
    "len3": [0.3, 0.5, 0.7],
    "[0.1,nan]": [0.1, NAN],
    "[0.1,1j]": [0.1, 1j],
    "np[True]": np.array([True, False]),
}
VEC = dict(ok="0 neg 1e-320 len3", bad="1j [] 2-D [0.1,nan] [0.1,1j] np[True]", extra=VEC_EXTRA)
F_AD = dict(values=F_VALUES, never=F_NEVER | {"f:math", "f:dropsIm"}, ok="f:const")


def _vec_f(v):
    return [sin(v[0]) * v[-1], exp(v[0])]


def _scalar_f(v):
    return sin(v[0]) * v[-1]


for name, func, f in (
    ("jacobian_forward", jacobian_forward, _vec_f),
    ("ad_cost", ad_cost, _vec_f),
    ("jacobian_reverse", jacobian_reverse, _vec_f),
    ("grad", grad, _scalar_f),
):
    add(name, func, {"f": f, "x": Q}, "x", **VEC)
    add(
        name,
        func,
        {"f": f, "x": Q},
        "f",
        **F_AD,
        bad="f:count" if name in ("jacobian_forward", "ad_cost") else "",
    )
add("derivative", derivative, {"f": lambda v: sin(v) * v, "x": 0.5}, "x", **SCALAR)
add("derivative", derivative, {"f": lambda v: sin(v) * v, "x": 0.5}, "f", **F_AD)

# --- autodiff: graphs read from the tape, and checkpointed reverse mode ----------------
add("trace", trace, {"f": _vec_f, "x": Q}, "x", **VEC)
add(
    "trace",
    trace,
    {"f": _vec_f, "x": Q},
    "f",
    values=F_VALUES,
    never=F_NEVER | {"f:math", "f:dropsIm"},
    bad="f:const",
)  # a constant output has no node to draw
_GRAPH = Fresh(lambda: trace(arm.arm_fk, Q))
SEED_EXTRA = {"e1": [1.0, 0.0], "len3": [1.0, 0.0, 0.0], "[0.1,nan]": [0.1, NAN]}
add(
    "Graph.tangents",
    lambda graph, seed: graph.tangents(seed),
    {"graph": _GRAPH, "seed": [1.0, 0.0]},
    "seed",
    ok="e1",
    bad="0 neg 1e308 1e-320 1j [] 2-D len3 [0.1,nan]",
    extra=SEED_EXTRA,
)
INT_EXTRA = {"int0": 0, "int1": 1, "int2": 2, "int-1": -1, "np.int64": np.int64(1), "huge": 10**30}
for param, ok, bad in (
    ("output", "int0 int1 np.int64", "int2 int-1 huge"),
    ("steps", "int0 int1 None", "int-1 huge"),
):
    base = {"graph": _GRAPH, "output": 0, "steps": None}
    add(
        "Graph.adjoints",
        lambda graph, output, steps: graph.adjoints(output, steps),
        base,
        param,
        ok=ok,
        bad=bad + " 0 neg 1e308 1e-320 1j [] 2-D",
        extra=INT_EXTRA,
        never=NEVER - {"None"},
    )
add(
    "rk4_step",
    rk4_step,
    {"f": lambda y: [y[1], -sin(y[0])], "h": 0.1},
    "h",
    ok="neg 1e-320",
    bad="0 1j [] 2-D",
)
add(
    "rk4_step",
    rk4_step,
    {"f": lambda y: [y[1], -sin(y[0])], "h": 0.1},
    "f",
    values=F_VALUES,
    never=set(VALUES),
    ok=" ".join(BAD_F),
)  # a callable is accepted; it is called later
_STEP = rk4_step(lambda y: [y[1], -sin(y[0])], 0.1)
S_BASE = {"step": _STEP, "y0": Q, "n_steps": 5, "weights": [1.0, 0.0], "every": 2}
add(
    "grad_through_steps",
    grad_through_steps,
    S_BASE,
    "step",
    values=F_VALUES,
    never=F_NEVER | {"f:math", "f:dropsIm", "f:const"},
    pattern=r"\bstep\b",
)
add(
    "grad_through_steps",
    grad_through_steps,
    S_BASE,
    "y0",
    bad="0 neg 1e308 1e-320 1j [] 2-D len3",
    extra=VEC_EXTRA,
    pattern=r"\by0\b",
)
add(
    "grad_through_steps",
    grad_through_steps,
    S_BASE,
    "weights",
    ok="len2",
    bad="0 neg 1e308 1e-320 1j [] 2-D len3",
    extra={**VEC_EXTRA, "len2": [0.5, -1e300]},
)
add(
    "grad_through_steps",
    grad_through_steps,
    S_BASE,
    "n_steps",
    ok="int2 int5",
    bad="0 neg 1e308 1e-320 1j [] 2-D int0 int-1 huge",
    extra={**INT_EXTRA, "int5": 5, "int2": 2},
)
add(
    "grad_through_steps",
    grad_through_steps,
    S_BASE,
    "every",
    ok="None int1 int2 np.int64",
    bad="0 neg 1e308 1e-320 1j [] 2-D int0 int-1 huge",
    extra=INT_EXTRA,
    never=NEVER - {"None"},
)
for param, ok in (("n_steps", "int2"), ("every", "int1 int2")):  # n_steps = 1 < every = 2: refused
    add(
        "checkpoint_counts",
        checkpoint_counts,
        {"n_steps": 5, "every": 2},
        param,
        ok=ok,
        bad="0 neg 1e308 1e-320 1j [] 2-D int0 int-1 huge",
        extra=INT_EXTRA,
    )
PG_BASE = {"graph": _GRAPH, "ax": Fresh(lambda: plt.figure().add_subplot())}
add(
    "plot_graph",
    plot_graph,
    PG_BASE,
    "graph",
    never=set(VALUES),
    extra={"Tape": Fresh(Tape)},
    bad="Tape",
)
for param, ok, extra in (
    ("names", "None good", {"good": {0: "q1"}, "bad-key": {99: "z"}, "bad-val": {0: 1.5}}),
    ("notes", "None good", {"good": {0: "q1"}, "bad-key": {-1: "z"}, "bad-val": {0: None}}),
    (
        "edge_values",
        "None good",
        {"good": {(0, 2): 1.0}, "bad-key": {(0, 12): 1.0}, "bad-val": {(0, 2): NAN}},
    ),
    ("active", "None int0", INT_EXTRA),
    ("value_fmt", "", {"good": ".2f"}),
    ("fontsize", "", {"8": 8.0}),
):
    add(
        "plot_graph",
        plot_graph,
        PG_BASE,
        param,
        ok=ok,
        extra=extra,
        never=NEVER - {"None"},
        bad="bad-key bad-val huge int-1 1j [] 2-D" if param != "value_fmt" else "1j [] 2-D",
    )

# --- finite differences --------------------------------------------------------------
SCHEME_VALUES = {**VALUES, "backward": "backward"}
add(
    "optimal_h",
    fd.optimal_h,
    {"scheme": "central", "x_scale": 1.0},
    "scheme",
    values=SCHEME_VALUES,
    never=set(SCHEME_VALUES),
)
add("optimal_h", fd.optimal_h, {"scheme": "central", "x_scale": 1.0}, "x_scale", **SCALAR)
H_EXTRA = {"1e-16": 1e-16, "1e-300": 1e-300, "2.0": 2.0}
for scheme in fd.SCHEMES:
    base = {"f": lambda v: np.array(_vec_f(v)), "x": Q, "h": None, "scheme": scheme}
    real_scheme = scheme != "complex"
    f_never = F_NEVER if real_scheme else F_NEVER | {"f:math", "f:dropsIm"}
    add(
        f"jacobian_fd[{scheme}]",
        fd.jacobian_fd,
        base,
        "h",
        ok="None 1e-16",
        extra=H_EXTRA,
        bad="0 neg 1e308 1e-320 1e-300 2.0 1j [] 2-D",
        never=NEVER - {"None"},
    )
    add(f"jacobian_fd[{scheme}]", fd.jacobian_fd, base, "x", **VEC)
    add(
        f"jacobian_fd[{scheme}]",
        fd.jacobian_fd,
        base,
        "f",
        values=F_VALUES,
        never=f_never,
        # a constant f returns a real value for complex input, which the complex step cannot
        # tell from abs(z): refused there with a hint, so f:const may go either way
        ok=" f:const f:math f:dropsIm" if real_scheme else "",
        bad="f:count",
    )
add(
    "jacobian_fd",
    fd.jacobian_fd,
    {"f": _vec_f, "x": Q},
    "scheme",
    values=SCHEME_VALUES,
    never=set(SCHEME_VALUES),
)
G_BASE = {"f": _scalar_f, "x": Q, "h": None, "scheme": "central"}
add("gradient_fd", fd.gradient_fd, G_BASE, "x", **VEC)
add(
    "gradient_fd",
    fd.gradient_fd,
    G_BASE,
    "h",
    ok="None",
    bad="0 neg 1e308 1e-320 1j [] 2-D",
    never=NEVER - {"None"},
)
add(
    "gradient_fd",
    fd.gradient_fd,
    G_BASE,
    "f",
    values=F_VALUES,
    never=F_NEVER,
    ok="f:const f:math f:dropsIm",
    bad="f:count",
)
D_BASE = {"f": lambda v: sin(v) * v, "x": 0.5, "h": None, "scheme": "complex"}
add("derivative_fd", fd.derivative_fd, D_BASE, "x", **SCALAR)
add(
    "derivative_fd",
    fd.derivative_fd,
    D_BASE,
    "h",
    ok="None",
    bad="0 neg 1e308 1e-320 1j [] 2-D",
    never=NEVER - {"None"},
)
add(
    "derivative_fd",
    fd.derivative_fd,
    D_BASE,
    "f",
    values=F_VALUES,  # complex: f:const either
    never=F_NEVER | {"f:math", "f:dropsIm", "f:count"},
)
add(
    "derivative_fd",
    fd.derivative_fd,
    D_BASE,
    "scheme",
    values=SCHEME_VALUES,
    never=set(SCHEME_VALUES),
)

E_BASE = {
    "f": arm.arm_fk,
    "x": Q,
    "reference": arm.arm_jacobian(Q),
    "hs": [1e-8, 1e-4],
    "schemes": fd.SCHEMES,
}
add(
    "error_vs_h",
    fd.error_vs_h,
    E_BASE,
    "reference",
    ok="2-D",
    bad="0 neg 1e308 1e-320 1j [] flat4 cplx",
    extra={"flat4": np.zeros(4), "cplx": np.eye(2) * 1j},
)
add(
    "error_vs_h",
    fd.error_vs_h,
    E_BASE,
    "hs",
    ok="None 1e-16",
    never=NEVER - {"None"},
    bad="0 neg 1e308 1e-320 1j [] 2-D 1001 [h,nan]",
    extra={"1e-16": [1e-16], "1001": np.logspace(-8, -1, 1001), "[h,nan]": [1e-8, NAN]},
)
add(
    "error_vs_h",
    fd.error_vs_h,
    E_BASE,
    "schemes",
    ok="fwd",
    bad="0 neg 1e308 1e-320 1j [] 2-D back",
    extra={"fwd": ("forward",), "back": ("backward",), "twice": ["forward", "forward"]},
)
add("error_vs_h", fd.error_vs_h, E_BASE, "x", bad="0 neg 1e308 1e-320 1j [] 2-D", extra=VEC_EXTRA)
add(
    "error_vs_h",
    fd.error_vs_h,
    E_BASE,
    "f",
    values=F_VALUES,  # const f: J shape != reference
    never=F_NEVER | {"f:math", "f:dropsIm", "f:count"},
    pattern=r"\bf\b|\breference\b",
)

# --- usable_steps and error_model (chapter 6) ------------------------------------------
US_BASE = {"x": Q, "hs": [1e-8, 1e-4], "scheme": "forward"}
add(
    "usable_steps",
    fd.usable_steps,
    US_BASE,
    "x",
    ok="0 neg len3",
    bad="1j [] 2-D [0.1,nan] [0.1,1j] np[True]",
    extra=VEC_EXTRA,
)
add(
    "usable_steps",
    fd.usable_steps,
    US_BASE,
    "hs",
    ok="1e-16",
    never=NEVER,
    bad="0 neg 1j [] 2-D 1001 [h,nan]",
    extra={"1e-16": [1e-16], "1001": np.logspace(-8, -1, 1001), "[h,nan]": [1e-8, NAN]},
)
add(
    "usable_steps",
    fd.usable_steps,
    US_BASE,
    "scheme",
    values=SCHEME_VALUES,
    never=set(SCHEME_VALUES),
)
EM_BASE = {"f": arm.arm_fk, "x": Q, "hs": [1e-8, 1e-4], "scheme": "central"}
add(
    "error_model", fd.error_model, EM_BASE, "x", bad="0 neg 1e308 1e-320 1j [] 2-D", extra=VEC_EXTRA
)
add(
    "error_model",
    fd.error_model,
    EM_BASE,
    "hs",
    ok="1e-16",
    never=NEVER,
    bad="0 neg 1e308 1j [] 2-D 1001 [h,nan]",
    extra={"1e-16": [1e-16], "1001": np.logspace(-8, -1, 1001), "[h,nan]": [1e-8, NAN]},
)
add(
    "error_model", fd.error_model, EM_BASE, "scheme", values=SCHEME_VALUES, never=set(SCHEME_VALUES)
)
add(
    "error_model",
    fd.error_model,
    {**EM_BASE, "x": [0.5]},
    "f",
    values=F_VALUES,
    never=F_NEVER,
    ok="f:const f:math f:dropsIm",
    bad="f:count",
)

# --- plot_error_vs_h --------------------------------------------------------------------
_H = np.array([1e-8, 1e-4])
SWEEPS = {
    "no_h": {"forward": _H},
    "h_only": {"h": _H},
    "nan_err": {"h": _H, "forward": [1e-3, NAN]},
    "neg_err": {"h": _H, "forward": [1e-3, -1.0]},
    "short": {"h": _H, "forward": [1e-3]},
    "h<=0": {"h": [0.0, 1e-4], "forward": [1e-3, 1e-3]},
    "str_err": {"h": _H, "forward": "ab"},
    "2-D_err": {"h": _H, "forward": [[1e-3, 1e-3]]},
    "int_key": {"h": _H, 3: [1e-3, 1e-3]},
    "_key": {"h": _H, "_hidden": [1e-3, 1e-3]},
    "cplx_err": {"h": _H, "forward": [1e-3, 1j]},
    "zero_err": {"h": _H, "complex": [0.0, 0.0]},
    "1e308_err": {"h": _H, "central": [1e308, 1.0]},
}
P_BASE = {
    "sweep": {"h": _H, "forward": _H, "complex": [0.0, 1e-9]},
    "ax": None,
    "floor": fd.EPS / 8,
}
add(
    "plot_error_vs_h",
    plot_error_vs_h,
    P_BASE,
    "sweep",
    never=set(VALUES) | set(SWEEPS),
    ok="zero_err 1e308_err",
    extra=SWEEPS,
)
add(
    "plot_error_vs_h",
    plot_error_vs_h,
    P_BASE,
    "ax",
    never=set(VALUES) - {"None"},
    ok="None Axes",
    extra={"Axes": Fresh(lambda: plt.figure().add_subplot())},
)
add("plot_error_vs_h", plot_error_vs_h, P_BASE, "floor", ok="", bad="0 neg 1j [] 2-D")

_MODEL = fd.error_model(np.exp, [1.0], [1e-8, 1e-4], "forward")
MODELS = {
    "no_h": {k: v for k, v in _MODEL.items() if k != "h"},
    "short": {**_MODEL, "rounding": [1.0]},
    "nan": {**_MODEL, "truncation": [NAN, 1.0]},
    "h<=0": {**_MODEL, "h": [0.0, 1e-4]},
    "no_opt": {**_MODEL, "h_opt": None, "e_opt": None},
    "model": _MODEL,
}
PM_BASE = {"model": _MODEL, "ax": None, "color": "0.4", "labels": None, "parts": True}
add(
    "plot_error_model",
    plot_error_model,
    PM_BASE,
    "model",
    never=set(VALUES) | set(MODELS) - {"no_opt", "model"},
    ok="no_opt model",
    extra=MODELS,
)
add(
    "plot_error_model",
    plot_error_model,
    PM_BASE,
    "labels",
    never=NEVER - {"None"},
    ok="None pair",
    bad="0 neg 1e308 1e-320 1j [] 2-D three",
    extra={"pair": ("T", "R"), "three": ("a", "b", "c")},
)
add(
    "plot_error_model",
    plot_error_model,
    PM_BASE,
    "parts",
    values={"True": True, "False": False, "1": 1, "str": "abc", "None": None},
    never={"1", "str", "None"},
    ok="True False",
)
add(
    "plot_error_model",
    plot_error_model,
    PM_BASE,
    "ax",
    never=set(VALUES) - {"None"},
    ok="None Axes",
    extra={"Axes": Fresh(lambda: plt.figure().add_subplot())},
)

# --- arm ----------------------------------------------------------------------------------
Q_EXTRA = {
    "len3": [0.1, 0.2, 0.3],
    "[0.1,nan]": [0.1, NAN],
    "[0.1,1j]": [0.1, 1j],
    "Duals": Fresh(lambda: [Dual(0.3, 1.0), Dual(0.5)]),
    "[True,0.1]": [True, 0.1],
    "[10**400,0]": [10**400, 0.0],
    "np": np.array(Q),
    "[0.1,'a']": [0.1, "a"],
    "Vars": Fresh(lambda: list(map(Tape().var, Q))),
}
for name, func, cplx in (("arm_fk", arm.arm_fk, True), ("arm_jacobian", arm.arm_jacobian, False)):
    base = {"q": Q, "l1": 1.0, "l2": 0.7}
    add(
        name,
        func,
        base,
        "q",
        ok="np" + (" [0.1,1j] Duals Vars" if cplx else ""),
        never=set(VALUES) | set(Q_EXTRA) - {"np", "[0.1,1j]", "Duals", "Vars"}
        if cplx
        else set(VALUES) | set(Q_EXTRA) - {"np"},
        extra=Q_EXTRA,
    )
    for link in ("l1", "l2"):
        add(name, func, base, link, bad="0 neg 1e308 1j [] 2-D")
X_EXTRA = {
    "len1": [0.1],
    "len3": [0.1, 0.2, 0.3],
    "[0.1,nan]": [0.1, NAN],
    "cplx": np.array([0.1, 0.2 + 1e-20j]),
    "Duals": Fresh(lambda: [Dual(0.3, 1.0), Dual(0.5)]),
    "huge": Fresh(lambda: np.zeros(10**6 + 1)),
    "[0.1,'a']": [0.1, "a"],
}
add(
    "sin_chain",
    arm.sin_chain,
    {"x": Q},
    "x",
    ok="len3 cplx Duals",
    extra=X_EXTRA,
    never=set(VALUES) | set(X_EXTRA) - {"len3", "cplx", "Duals"},
)
add(
    "sin_chain_grad",
    arm.sin_chain_grad,
    {"x": Q},
    "x",
    ok="len3",
    extra=X_EXTRA,
    never=set(VALUES) | set(X_EXTRA) - {"len3"},
)


def _all_finite(r) -> bool:
    """Every number reachable in a result is finite (NaN must not pass silently)."""
    if isinstance(r, Dual):
        return math.isfinite(r.v) and math.isfinite(r.d)
    if isinstance(r, Var):
        return math.isfinite(r.v)
    if isinstance(r, (bool, int)):
        return True
    if isinstance(r, (float, complex, np.number)):
        return bool(np.isfinite(r))
    if isinstance(r, np.ndarray):
        return (
            all(map(_all_finite, r.ravel())) if r.dtype == object else bool(np.all(np.isfinite(r)))
        )
    if isinstance(r, dict):
        return all(map(_all_finite, r.values()))
    if isinstance(r, (list, tuple)):
        return all(map(_all_finite, r))
    if isinstance(r, (ADCost, StepsGradient)):
        return all(map(_all_finite, vars(r).values()))
    return True  # Axes, Line2D, None: nothing numeric to check


def _run_case(func, kwargs, expect, pattern) -> str | None:
    """What is wrong with one call, or None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a warning escaping the library is a defect
            result = func(**kwargs)
    except (TypeError, ValueError, RobonumError) as exc:
        if expect == "ok":
            return f"valid input refused: {type(exc).__name__}: {exc}"
        if not re.search(pattern, str(exc)):
            return f"message does not name {pattern!r}: {type(exc).__name__}: {exc}"
        return None
    except Exception as exc:  # noqa: BLE001 -- any other type is the defect
        kind = "warning escaped" if isinstance(exc, Warning) else "wrong exception type"
        return f"{kind} {type(exc).__name__}: {exc}"
    finally:
        plt.close("all")
    if expect == "raise":
        return f"accepted, returned {result!r}"
    if not _all_finite(result):
        return f"non-finite result passed silently: {result!r}"
    return None


def test_case_count():
    assert sum(len(g[4]) for g in GROUPS.values()) > 1500  # the run stays systematic


@pytest.mark.parametrize("group", list(GROUPS))
def test_bad_input(group):
    func, base, param, pattern, cases = GROUPS[group]
    problems = []
    for cls, value, expect in cases:
        kwargs = {k: _resolve(v) for k, v in base.items()}
        kwargs[param] = _resolve(value)
        problem = _run_case(func, kwargs, expect, pattern)
        if problem:
            problems.append(f"{group}-{cls}: {problem}"[:300])
    assert not problems, "\n".join(problems)
