"""Systematic bad-input run over the integration core: problems, methods, steppers, drivers,
analysis, plotting, rotations and the compiled path.

Each case calls one public function with a valid baseline except for one
parameter, which gets one value class (NaN, ±inf, 0, negative, 1e308,
1e-320, 10**400, True, "abc", None, 1j, [], a 2-D array, a wrong length,
and callables returning the wrong shape / NaN / complex, or raising).
A case passes when the call

* returns, and no NaN appears in what it returns (a failed run must say so
  through ``status``/``reason``, not through NaN values), or
* raises ``TypeError``/``ValueError``/``RobonumError`` whose message names
  the parameter (or, for a callable, the function's role),

within a time limit and with every warning turned into an error.  Values
that are never valid for a parameter are listed per case and must raise.
"""

from __future__ import annotations

import math
import signal
import warnings

import matplotlib.pyplot as plt
import numpy as np
import pytest

import robonum as rn
from robonum import fast, lie
from robonum.analysis import energy, multistep, order_conditions
from robonum.errors import RobonumError
from robonum.explore import Param

NAN, INF = math.nan, math.inf
SCALARS = {
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
}
SHAPES = {
    "[]": [],
    "2-D": [[1.0, 2.0], [3.0, 4.0]],
    "len5": [1.0, 2.0, 3.0, 4.0, 5.0],
    "nan-vec": [1.0, NAN],
    "cplx-vec": [1.0, 1j],
}
NOT_A_NUMBER = {"nan", "+inf", "-inf", "10**400", "True", "str", "None", "1j"}
NOT_A_VECTOR = NOT_A_NUMBER | {"[]", "2-D", "nan-vec", "cplx-vec"}


def _logistic(**kw):
    return rn.problems.logistic(t_span=(0.0, 1.0), **kw)


def _bad_f(kind):
    """An f that is fine at t0 and goes wrong later (so the driver, not the constructor, meets it)."""

    def f(t, y):
        if t < 0.25:
            return -y
        return {
            "shape": np.zeros(3),
            "nan": np.array([NAN]),
            "cplx": 1j * y,
            "str": "x",
            "raise": 1 / 0 if t > 0 else y,
            "inf": np.array([INF]),
        }[kind]

    return f


CALLABLES = {f"f:{k}": _bad_f(k) for k in ("shape", "nan", "cplx", "str", "raise", "inf")}
CALLABLES.update(
    {"f:wrong-at-t0": lambda t, y: np.zeros(3), "f:none": lambda t, y: None, "f:not-callable": 3.0}
)

# (id, function, baseline kwargs, {param: value classes}, value classes that must raise)
CASES = [
    (
        "integrate",
        rn.integrate,
        dict(problem=_logistic(), method="rk4", h=0.1),
        {
            "h": SCALARS | SHAPES,
            "method": SCALARS | {"name": "bdf²", "lmm": "bdf7"},
            "save_every": SCALARS,
            "blowup": SCALARS,
        },
        NOT_A_NUMBER | {"0", "neg", "1e-320"},
    ),
    (
        "integrate-adaptive",
        rn.integrate,
        dict(problem=_logistic(), method="dopri5", rtol=1e-6),
        {
            "rtol": SCALARS,
            "atol": SCALARS,
            "first_step": SCALARS,
            "max_step": SCALARS,
            "max_steps": SCALARS,
            "controller": {"str": "abc", "num": 3},
        },
        NOT_A_NUMBER | {"neg"},
    ),
    (
        "ODEProblem",
        rn.ODEProblem,
        dict(f=lambda t, y: -y, y0=[1.0], t_span=(0.0, 1.0)),
        {
            "y0": SCALARS | SHAPES,
            "t_span": SCALARS | SHAPES | {"rev": (1, 0), "huge": (-1e308, 1e308)},
            "f": CALLABLES,
            "jac": {
                "shape": lambda t, y: np.eye(2),
                "nan": lambda t, y: np.array([[NAN]]),
                "str": "abc",
            },
            "name": {"num": 3},
            "params": {"list": [1]},
        },
        NOT_A_VECTOR | {"rev", "huge"},
    ),
    (
        "HamiltonianProblem",
        rn.HamiltonianProblem,
        dict(grad_V=np.sin, q0=[1.0], p0=[0.0], t_span=(0.0, 1.0)),
        {
            "q0": SCALARS | SHAPES,
            "p0": SCALARS | SHAPES,
            "grad_V": {
                "cplx": lambda q: 1j * q,
                "shape": lambda q: np.ones(3),
                "nan": lambda q: q * NAN,
                "num": 3,
            },
            "V": {"shape": lambda q: np.ones(4), "num": 3},
        },
        NOT_A_VECTOR,
    ),
    (
        "solve_ivp",
        rn.solve_ivp,
        dict(fun=lambda t, y: -y, t_span=(0, 1), y0=[1.0]),
        {
            "rtol": SCALARS,
            "atol": SCALARS,
            "method": {"x": "LSODA2", "radau9": "radau9"},
            "y0": SCALARS | SHAPES,
        },
        (NOT_A_NUMBER - {"None"}) | {"x", "radau9"},
    ),
    (
        "convergence_study",
        rn.convergence_study,
        dict(problem=_logistic(), method="rk4", hs=[0.1, 0.05]),
        {"hs": SCALARS | SHAPES | {"many": list(np.geomspace(0.1, 1e-3, 60))}},
        NOT_A_VECTOR,
    ),
    (
        "halving",
        rn.halving,
        dict(h0=0.1, n=4),
        {"h0": SCALARS, "n": SCALARS | {"big": 10**9}},
        NOT_A_NUMBER | {"big"},
    ),
    (
        "fitted_order",
        rn.fitted_order,
        dict(hs=[0.1, 0.05, 0.025], errors=[1e-2, 2.5e-3, 6e-4]),
        {"hs": SHAPES | SCALARS, "errors": SHAPES | SCALARS},
        NOT_A_VECTOR,
    ),
    (
        "methods.get",
        rn.methods.get,
        dict(method="rk4"),
        {"method": SCALARS | {"x": "rk5", "list": [1]}},
        NOT_A_NUMBER | {"x"},
    ),
    (
        "ButcherTableau",
        rn.ButcherTableau,
        dict(name="t", A=[[0, 0], [1, 0]], b=[0.5, 0.5], order=2),
        {
            "A": SCALARS | SHAPES,
            "b": SCALARS | SHAPES,
            "b_hat": SHAPES | {"nan": [NAN, 1.0]},
            "order": SCALARS,
        },
        NOT_A_VECTOR,
    ),
    (
        "collocation",
        rn.methods.collocation,
        dict(nodes=[0.5], name="c"),
        {"nodes": SCALARS | SHAPES | {"many": list(np.linspace(0.01, 1, 1000))}},
        {"many"},
    ),
    (
        "quadrature_order",
        rn.methods.implicit.quadrature_order,
        dict(b=[0.5, 0.5], c=[0.0, 1.0]),
        {"b": SHAPES | {"nan": [NAN]}, "max_order": SCALARS | {"big": 10**9}},
        {"big", "nan"},
    ),
    (
        "gauss_legendre",
        rn.methods.gauss_legendre,
        dict(s=2),
        {"s": SCALARS | {"big": 1000}},
        NOT_A_NUMBER | {"big"},
    ),
    ("bdf", rn.methods.bdf, dict(k=2), {"k": SCALARS | {"seven": 7}}, NOT_A_NUMBER | {"seven"}),
    (
        "LinearMultistep",
        rn.methods.LinearMultistep,
        dict(name="ab", alpha=[1, -1], beta=[0, 1]),
        {"alpha": SCALARS | SHAPES, "beta": SCALARS | SHAPES, "order": SCALARS},
        NOT_A_VECTOR,
    ),
    (
        "ExplicitRK",
        rn.ExplicitRK,
        dict(method="rk4"),
        {"method": SCALARS | {"impl": "radau3"}},
        NOT_A_NUMBER,
    ),
    (
        "ImplicitRK",
        rn.ImplicitRK,
        dict(method="radau3"),
        {"newton": SCALARS | {"dict": {"tol": 1e-8}}},
        NOT_A_NUMBER,
    ),
    (
        "RadauIIA",
        rn.steppers.RadauIIA,
        dict(stages=5),
        {"stages": SCALARS | {"even": 4, "seven": 7}},
        (NOT_A_NUMBER - {"None"}) | {"0", "neg", "1e308", "1e-320", "even", "seven"},
    ),
    (
        "VariableBDF",
        rn.steppers.VariableBDF,
        dict(),
        {"ndf": SCALARS, "jac_max_age": SCALARS | {"big": 10**7}},
        set(SCALARS) | {"big"},
    ),
    (
        "NewtonOptions",
        rn.NewtonOptions,
        dict(),
        {"tol": SCALARS, "kappa": SCALARS, "max_iter": SCALARS, "theta_max": SCALARS},
        NOT_A_NUMBER,
    ),
    (
        "StepController",
        rn.StepController,
        dict(q=5),
        {"q": SCALARS, "safety": SCALARS, "beta": SCALARS},
        NOT_A_NUMBER,
    ),
    (
        "R(z)",
        lambda z: rn.methods.get("rk4").stability_function()(z),
        dict(z=-1.0),
        {"z": SCALARS | SHAPES | {"huge": np.zeros(5_000_000)}},
        {"nan", "+inf", "str", "None", "huge"},
    ),
    (
        "order_conditions",
        lambda p: rn.methods.get("rk4").order_conditions(p),
        dict(p=3),
        {"p": SCALARS | {"big": 10**9}},
        NOT_A_NUMBER | {"big"},
    ),
    (
        "trees",
        order_conditions.trees,
        dict(n=3),
        {"n": SCALARS | {"big": 50}},
        NOT_A_NUMBER | {"big"},
    ),
    (
        "tree_string",
        order_conditions.tree_string,
        dict(t=((),)),
        {"t": SCALARS | {"s": "ab"}},
        {"s", "str"},
    ),
    (
        "lmm_order",
        multistep.lmm_order,
        dict(alpha=[1, -1], beta=[0, 1]),
        {"alpha": SCALARS | SHAPES, "beta": SCALARS | SHAPES},
        NOT_A_VECTOR,
    ),
    (
        "zero_stability",
        multistep.zero_stability,
        dict(alpha=[1, -1]),
        {"alpha": SCALARS | SHAPES},
        NOT_A_VECTOR,
    ),
    (
        "energy_error",
        energy.energy_error,
        dict(E=[1.0, 1.1]),
        {"E": SCALARS | SHAPES, "E0": SCALARS},
        {"str", "None", "[]"},
    ),
    (
        "growth_exponent",
        energy.growth_exponent,
        dict(t=[1.0, 2.0, 3.0], err=[1.0, 2.0, 3.0], T_a=1.5, T_b=3.0),
        {"T_a": SCALARS, "T_b": SCALARS, "t": SHAPES},
        NOT_A_NUMBER,
    ),
    (
        "plot_stability_region",
        rn.plotting.plot_stability_region,
        dict(method="rk4", n=21),
        {
            "n": SCALARS | {"big": 4001},
            "ax": {"str": "abc", "num": 3},
            "xlim": SCALARS | SHAPES,
            "alpha": SCALARS,
            "method": SCALARS | {"split": "verlet"},
        },
        NOT_A_NUMBER | {"big"},
    ),
    (
        "lie.exp",
        lie.exp,
        dict(w=[0.1, 0.2, 0.3]),
        {"w": SCALARS | SHAPES | {"huge": [1e300, 0, 0]}},
        NOT_A_VECTOR | {"huge"},
    ),
    (
        "lie.log",
        lie.log,
        dict(R=np.eye(3)),
        {"R": SCALARS | SHAPES | {"refl": np.diag([1.0, 1, -1]), "cplx": 1j * np.eye(3)}},
        NOT_A_VECTOR | {"refl", "cplx"},
    ),
    (
        "integrate_rotation",
        lie.integrate_rotation,
        dict(R0=np.eye(3), omega=[0.3, -0.5, 0.8], t_span=(0, 1), h=0.01),
        {
            "h": SCALARS,
            "omega": SCALARS | SHAPES | {"nan-fn": lambda t: [NAN, 0, 0]},
            "t_span": SCALARS | {"long": (0, 1e9)},
            "method": {"x": "rk45"},
        },
        NOT_A_NUMBER | {"0", "neg", "1e-320", "long", "nan-fn"},
    ),
    (
        "euler_orthogonality_prediction",
        lie.euler_orthogonality_prediction,
        dict(omega=[0.3, -0.5, 0.8], h=0.01, n=100),
        {"h": SCALARS, "n": SCALARS | {"huge": 10**30}},
        NOT_A_NUMBER | {"huge"},
    ),
    (
        "fast.integrate",
        fast.integrate,
        dict(problem=fast.pendulum(t_span=(0, 1.0)), method="verlet", h=0.1),
        {"h": SCALARS, "save_every": SCALARS, "method": {"impl": "radau3"}},
        NOT_A_NUMBER | {"0", "neg", "1e-320", "impl"},
    ),
    (
        "Param.choice",
        Param.choice,
        dict(name="m", options=["a", "b"]),
        {"options": SCALARS | SHAPES},
        {"[]", "None"},
    ),
]

# Value classes that are valid for one parameter although the case's list says "must raise".
VALID = {
    ("integrate-adaptive", p): {"None"}
    for p in ("rtol", "atol", "first_step", "max_step", "max_steps")
}
VALID.update(
    {
        # 0 and 1e-320 are raised to 100 eps with SciPy's one warning (caught below)
        ("solve_ivp", "rtol"): {"0", "1e-320"},
        ("ButcherTableau", "A"): {"2-D"},
        ("plot_stability_region", "xlim"): {"None"},
        ("energy_error", "E0"): {"None"},
        ("LinearMultistep", "order"): {"None"},
        ("ImplicitRK", "newton"): {"None"},
        ("VariableBDF", "ndf"): {"True"},
        ("VariableBDF", "jac_max_age"): {"None"},
        # a complex state is valid, as in SciPy (dopri5 and bdf integrate it; issue 30)
        ("ODEProblem", "y0"): {"1j", "cplx-vec"},
        ("solve_ivp", "y0"): {"1j", "cplx-vec"},
    }
)

IDS, PARAMS = [], []
for cid, fn, base, params, must in CASES:
    for pname, classes in params.items():
        for vname, value in classes.items():
            IDS.append(f"{cid}-{pname}-{vname}")
            raise_expected = vname in must and vname not in VALID.get((cid, pname), set())
            PARAMS.append((fn, base, pname, value, raise_expected))


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout


def _no_nan(x, depth=0):
    if depth > 3:
        return True
    if isinstance(x, rn.Solution):
        return not np.isnan(x.y).any()
    if isinstance(x, (float, np.floating)):
        return not math.isnan(x)
    if isinstance(x, np.ndarray) and x.dtype.kind in "fc":
        return not np.isnan(x).any()
    if isinstance(x, (tuple, list)):
        return all(_no_nan(v, depth + 1) for v in x)
    return True


@pytest.fixture(scope="module", autouse=True)
def _compiled_once():
    """Compile the numba loops first: the 10 s guard below is for hangs, and compiling takes
    3 s alone but took over 10 s on a busy machine (measured while the book was building)."""
    for cid, fn, base, _, _ in CASES:
        if cid.startswith("fast."):
            fn(**base)


@pytest.mark.parametrize("fn, base, pname, value, must_raise", PARAMS, ids=IDS)
def test_bad_input_is_a_clear_named_error(fn, base, pname, value, must_raise):
    kwargs = dict(base, **{pname: value})
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(10)  # no case may hang
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            out = fn(**kwargs)
    except (TypeError, ValueError, RobonumError) as exc:
        message = str(exc) + " ".join(getattr(exc, "__notes__", []))
        role = pname.split("_")[0] if pname in ("grad_V",) else pname
        assert role in message or pname.rstrip("0") in message, f"{type(exc).__name__}: {message}"
        return
    except UserWarning as exc:  # one warning that names the parameter (SciPy's rtol floor)
        assert not must_raise and pname in str(exc), f"UserWarning: {exc}"
        return
    except ZeroDivisionError as exc:  # raised by a user f: allowed with a note
        assert any("raised inside" in n for n in getattr(exc, "__notes__", [])), exc
        return
    except _Timeout:
        pytest.fail("the call did not return within 10 s")
    finally:
        signal.alarm(0)
        plt.close("all")
    assert not must_raise, f"{pname}={value!r:.60} was accepted: {out!r:.200}"
    assert _no_nan(out), f"NaN in the result for {pname}={value!r:.60}: {out!r:.200}"
