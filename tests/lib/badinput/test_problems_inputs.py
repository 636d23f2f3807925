"""Bad input for every public function of robonum.problems, table-driven.

Each parameter of each function gets NaN, ±inf, 0, -1, 1e308, 1e-320,
10**400, True, "abc", None, 1j, [], [[1, 2], [3, 4]] and wrong-length
vectors.  Every call must either work or raise TypeError/ValueError whose
message names the parameter; no other exception and no warning may escape
(warnings are errors here).  When a factory accepts a value, f, jac and
exact must be finite at the ends of the span (no silent overflow).  Then
every documented parameter range is checked at its ends (the bound itself
is accepted, the next float outside is refused) and at the corners of the
ranges, with exact() evaluated at the end of the longest allowed span.
"""

import inspect
import itertools
import math
import warnings

import numpy as np
import pytest

import robonum as rn
from robonum import problems as P

BAD = {
    "nan": float("nan"),
    "inf": float("inf"),
    "-inf": float("-inf"),
    "zero": 0.0,
    "negative": -1.0,
    "huge": 1e308,
    "subnormal": 1e-320,
    "bigint": 10**400,
    "bool": True,
    "str": "abc",
    "none": None,
    "complex": 1j,
    "empty": [],
    "matrix": [[1, 2], [3, 4]],
}
NOT_A_NUMBER = {"nan", "inf", "-inf", "bigint", "bool", "str", "none", "complex", "empty", "matrix"}
SCALARS = {
    "nan",
    "inf",
    "-inf",
    "zero",
    "negative",
    "huge",
    "subnormal",
    "bigint",
    "bool",
    "complex",
}

# parameter kind -> labels that must be refused (the others may work or be refused)
MUST_REFUSE = {
    "real": NOT_A_NUMBER,
    "complex": NOT_A_NUMBER - {"complex"},
    "vector": NOT_A_NUMBER | SCALARS,
    "span": set(BAD),
    "problem": set(BAD),
    "t_opt": NOT_A_NUMBER - {"none"},
    "y_opt": set(BAD) - {"none"},
    "energy_y": {"bool", "str", "none", "complex", "bigint", "empty"} | SCALARS,
    "choice": set(BAD),
    "flag": set(BAD) - {"bool"},
    "times": NOT_A_NUMBER | {"negative", "huge"},
    "integer": set(BAD) - {"zero"},  # a float, even -1.0, is a typo for a count or a seed
}

# (kind of each parameter, extra values to try): every parameter of every public function
KINDS = {
    "logistic": dict(y0="real", r="real", K="real", t_span="span"),
    "dahlquist": dict(lam="complex", y0="complex", t_span="span"),
    "stiff_cosine": dict(lam="real", y0="real", t_span="span"),
    "van_der_pol": dict(mu="real", y0=("vector", 2), t_span="span"),
    "robertson": dict(k1="real", k2="real", k3="real", t_span="span"),
    "stiff_linear": dict(n="integer", stiffness="real", seed="integer", t_span="span"),
    "harmonic_oscillator": dict(omega="real", q0="real", p0="real", t_span="span"),
    "harmonic_energy": dict(y="energy_y", omega="real"),
    "pendulum": dict(q0="real", p0="real", g_over_l="real", t_span="span"),
    "pendulum_energy": dict(y="energy_y", g_over_l="real"),
    "flexible_joint": dict(
        J_link="real",
        J_motor="real",
        K="real",
        D="real",
        b_link="real",
        b_motor="real",
        mgd="real",
        tau="real",
        y0=("vector", 4),
        t_span="span",
    ),
    "penalty_contact": dict(
        M="real",
        m_foot="real",
        k_leg="real",
        c_leg="real",
        L0="real",
        k_c="real",
        c_c="real",
        g="real",
        drop_height="real",
        t_span="span",
    ),
    "dc_motor": dict(
        R="real",
        L="real",
        k="real",
        J="real",
        b="real",
        V="real",
        tau_load="real",
        y0=("vector", 2),
        t_span="span",
    ),
    "jacobian_eigenvalues": dict(problem="problem", t="t_opt", y="y_opt"),
    "stiffness_ratio": dict(
        problem="problem",
        t="t_opt",
        y="y_opt",
        measure="choice",
        ignore_zero="flag",
        zero_tol="real",
    ),
    "reference_solution": dict(
        problem="problem", t_eval="times", method="choice", rtol="real", atol="real"
    ),
}
REQUIRED = {  # valid values for parameters without a default
    "harmonic_energy": dict(y=[1.0, 0.5]),
    "pendulum_energy": dict(y=[1.0, 0.5]),
    "jacobian_eigenvalues": dict(problem=P.dc_motor()),
    "stiffness_ratio": dict(problem=P.dc_motor()),
    "reference_solution": dict(problem=P.dahlquist(), t_eval=[0.5]),
}
FACTORIES = [
    "logistic",
    "dahlquist",
    "stiff_cosine",
    "van_der_pol",
    "robertson",
    "stiff_linear",
    "harmonic_oscillator",
    "pendulum",
    "flexible_joint",
    "penalty_contact",
    "dc_motor",
]


def _extra_values(kind, n_state=2):
    """Kind-specific values beyond BAD: wrong lengths, bad entries, bad pairs."""
    if isinstance(kind, tuple):
        n = kind[1]
        return {
            "short": [0.0] * (n - 1),
            "long": [0.0] * (n + 1),
            "nan_entry": [np.nan] * n,
            "bool_vec": [True] * n,
            "complex_vec": [1j] * n,
            "bigint_entry": [10**400] * n,
            "huge_entry": [1e308] * n,
        }, {"short", "long", "nan_entry", "bool_vec", "complex_vec", "bigint_entry", "huge_entry"}
    if kind == "span":
        pairs = {
            "nan_pair": (np.nan, 1.0),
            "inf_pair": (0.0, np.inf),
            "reversed": (1.0, 0.0),
            "bigint_pair": (0, 10**400),
            "complex_pair": (0, 1j),
            "bool_pair": (True, 2.0),
            "str_pair": ("a", 1.0),
            "triple": (0.0, 1.0, 2.0),
            "empty_span": (0.0, 0.0),
            "huge_span": (0.0, 1e308),
            "huge_back": (-1e308, 0.0),
            "tiny_span": (0.0, 1e-320),
        }
        return pairs, set(pairs) - {"tiny_span", "huge_span", "huge_back"}
    if kind == "y_opt":
        vals = {
            "short": [0.0] * (n_state - 1),
            "long": [0.0] * (n_state + 1),
            "bool_vec": [True] * n_state,
            "huge_entry": [1e308] * n_state,
            "complex_vec": [1j] * n_state,
        }
        return vals, {"short", "long", "bool_vec", "complex_vec"}
    if kind == "energy_y":
        vals = {
            "huge_state": [1e300, 0.0],
            "nan_state": [np.nan, 0.0],
            "wide": np.ones((2, 5)),
            "three_rows": np.ones((3, 5)),
            "bool_vec": [True, False],
        }
        return vals, {"huge_state", "three_rows", "bool_vec"}
    if kind == "times":
        vals = {"outside": [0.5, 2.0], "decreasing": [0.5, 0.1], "too_many": np.zeros(10**6 + 1)}
        return vals, set(vals)
    return {}, set()


def _cases():
    for fname in P.__all__:
        fn = getattr(P, fname)
        params = list(inspect.signature(fn).parameters)
        assert set(params) == set(KINDS[fname]), (fname, params)  # every parameter is covered
        for param in params:
            kind = KINDS[fname][param]
            base = "vector" if isinstance(kind, tuple) else kind
            extra, extra_refuse = _extra_values(kind)
            for label, value in {**BAD, **extra}.items():
                must = label in MUST_REFUSE[base] or label in extra_refuse
                yield pytest.param(fname, param, value, must, id=f"{fname}-{param}-{label}")


def _finite(x):
    return bool(np.all(np.isfinite(np.asarray(x, dtype=float))))


def _check_problem(p):
    """f, jac at (t0, y0) and exact at both ends of the span are finite."""
    t0, t1 = p.t_span
    assert _finite(p.f(t0, p.y0.copy())), p.name
    assert _finite(p.jac(t0, p.y0.copy())), p.name
    if p.exact is not None:
        assert _finite(p.exact(t0)) and _finite(p.exact(t1)), p.name
        assert _finite(p.exact(np.linspace(t0, t1, 5))), p.name


@pytest.mark.parametrize("fname,param,value,must_refuse", list(_cases()))
def test_bad_value_is_refused_by_name_or_works(fname, param, value, must_refuse):
    kwargs = dict(REQUIRED.get(fname, {}))
    kwargs[param] = value
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            out = getattr(P, fname)(**kwargs)
        except (TypeError, ValueError) as exc:
            assert param in str(exc), f"message does not name {param!r}: {exc}"
            return
        assert not must_refuse, f"{fname}({param}={value!r:.60}) was accepted"
        if isinstance(out, rn.ODEProblem):
            _check_problem(out)
        else:
            assert _finite(np.abs(out)) or fname.endswith("_energy"), out


def _exact_factories():
    return [
        P.logistic(),
        P.logistic(r=-2.0, y0=0.5),
        P.dahlquist(),
        P.dahlquist(-1 + 2j, 1j),
        P.stiff_cosine(),
        P.stiff_linear(),
        P.harmonic_oscillator(),
        P.pendulum(),
        P.dc_motor(),
    ]


@pytest.mark.parametrize(
    "label,t",
    [
        ("nan", np.nan),
        ("inf", np.inf),
        ("-inf", -np.inf),
        ("bigint", 10**400),
        ("bool", True),
        ("str", "abc"),
        ("none", None),
        ("complex", 1j),
        ("matrix", [[0.1, 0.2], [0.3, 0.4]]),
        ("before_t0", -1e-3),
        ("far_future", 1e308),
        ("bool_array", np.array([True])),
    ],
)
def test_exact_refuses_bad_times(label, t):
    for p in _exact_factories():
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises((TypeError, ValueError), match=r"\bt\b"):
                p.exact(t)


# Documented ranges (from the docstrings): name -> (lo, hi); the vector bounds are per entry.
RANGES = {
    "logistic": dict(y0=(1e-6, 1e6), r=(-1e3, 1e3), K=(1e-6, 1e6)),
    "dahlquist": dict(lam=(-1e8, 1e8), y0=(-1e6, 1e6)),
    "stiff_cosine": dict(lam=(-1e9, -1e-6), y0=(-1e6, 1e6)),
    "van_der_pol": dict(mu=(1e-3, 1e6)),
    "robertson": dict(k1=(1e-8, 1e12), k2=(1e-8, 1e12), k3=(1e-8, 1e12)),
    "stiff_linear": dict(stiffness=(1.0, 1e8)),
    "harmonic_oscillator": dict(omega=(1e-3, 1e6), q0=(-1e6, 1e6), p0=(-1e12, 1e12)),
    "harmonic_energy": dict(omega=(1e-3, 1e6)),
    "pendulum": dict(q0=(-1e3, 1e3), p0=(-1e4, 1e4), g_over_l=(1e-2, 1e6)),
    "pendulum_energy": dict(g_over_l=(1e-2, 1e6)),
    "flexible_joint": dict(
        J_link=(1e-6, 1e3),
        J_motor=(1e-8, 10.0),
        K=(1.0, 1e7),
        D=(0.0, 1e4),
        b_link=(0.0, 1e3),
        b_motor=(0.0, 1e3),
        mgd=(0.0, 1e4),
        tau=(-1e4, 1e4),
    ),
    "penalty_contact": dict(
        M=(1e-2, 1e3),
        m_foot=(1e-4, 1e2),
        k_leg=(1.0, 1e7),
        c_leg=(0.0, 1e5),
        L0=(1e-3, 10.0),
        k_c=(1e2, 1e10),
        c_c=(0.0, 1e6),
        g=(0.0, 100.0),
        drop_height=(0.0, 100.0),
    ),
    "dc_motor": dict(
        R=(1e-3, 1e3),
        L=(1e-7, 1.0),
        k=(1e-4, 10.0),
        J=(1e-9, 10.0),
        b=(0.0, 10.0),
        V=(-1e3, 1e3),
        tau_load=(-1e3, 1e3),
    ),
    "stiffness_ratio": dict(zero_tol=(0.0, 0.1)),
    "reference_solution": dict(rtol=(1e-13, 1e-2), atol=(1e-30, 1.0)),
}
VECTOR_BOUNDS = {
    "van_der_pol": lambda kw: [10.0, 10.0 * max(1.0, kw.get("mu", 1000.0))],
    "flexible_joint": lambda kw: [1e3, 1e3, 1e4, 1e4],
    "dc_motor": lambda kw: [1e4, 1e5],
}


def _longest_span(fname, kw):
    """The documented longest t_span for these parameters."""
    if fname in ("logistic", "stiff_cosine", "stiff_linear"):
        return 1e6
    if fname == "dahlquist":
        re = complex(kw.get("lam", -1.0)).real
        return 1e6 if re <= 0 else min(1e6, 100.0 / re)
    if fname == "van_der_pol":
        return 1000.0 * max(2 * math.pi, (3 - 2 * math.log(2)) * kw.get("mu", 1000.0))
    if fname == "robertson":
        return 1e12
    if fname == "harmonic_oscillator":
        return 1e7 / kw.get("omega", 1.0)
    if fname == "pendulum":
        return 1e7 / math.sqrt(kw.get("g_over_l", 1.0))
    return 1e4


def _call(fname, kw):
    kw = {**REQUIRED.get(fname, {}), **kw}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return getattr(P, fname)(**kw)


@pytest.mark.parametrize("fname,param", [(f, p) for f in RANGES for p in RANGES[f]])
def test_documented_range_is_exact(fname, param):
    lo, hi = RANGES[fname][param]
    for inside in (lo, hi):
        kw = {param: inside}
        if fname in FACTORIES:  # with the longest span these values allow
            kw["t_span"] = (0.0, _longest_span(fname, kw))
        out = _call(fname, kw)
        if isinstance(out, rn.ODEProblem):
            _check_problem(out)
    for outside in (np.nextafter(lo, -np.inf), np.nextafter(hi, np.inf)):
        with pytest.raises(ValueError, match=param):
            _call(fname, {param: float(outside)})


def _corner_kwargs(fname, corner):
    kw = dict(corner)
    if fname == "logistic" and kw["r"] < 0 and kw["y0"] > kw["K"]:
        kw["y0"] = kw["K"]  # documented: r < 0 needs y0 <= K
    if fname in VECTOR_BOUNDS:
        bounds = np.array(VECTOR_BOUNDS[fname](kw))
        kw["y0"] = bounds * np.resize([1, -1], bounds.size)  # alternating signs
    kw["t_span"] = (0.0, _longest_span(fname, kw))
    return kw


@pytest.mark.parametrize("fname", FACTORIES)
def test_corners_of_the_ranges_stay_finite(fname):
    """Every combination of range ends (all of them up to 2^9 = 512), longest span:
    f, jac finite at the start; exact finite at the start, middle and end."""
    names = list(RANGES[fname])
    count = 0
    for ends in itertools.product(*[RANGES[fname][n] for n in names]):
        kw = _corner_kwargs(fname, zip(names, ends))
        p = _call(fname, kw)
        _check_problem(p)
        count += 1
    assert count == 2 ** len(names)


def test_complex_dahlquist_corners_stay_finite():
    for a, b, y_re, y_im in itertools.product((-1e8, 1e8), (-1e8, 1e8), (-1e6, 1e6), (-1e6, 1e6)):
        lam = complex(a, b)
        p = _call(
            "dahlquist",
            dict(
                lam=lam,
                y0=complex(y_re, y_im),
                t_span=(0.0, _longest_span("dahlquist", {"lam": lam})),
            ),
        )
        _check_problem(p)


def test_logistic_refuses_finite_time_blow_up():
    with pytest.raises(ValueError, match="y0"):
        P.logistic(y0=2.0, r=-1.0, K=1.0)


def test_coupled_span_limits_name_both_parameters():
    with pytest.raises(ValueError, match="lam") as info:
        P.dahlquist(lam=10.0, t_span=(0.0, 11.0))  # Re λ·L = 110 > 100
    assert "t_span" in str(info.value)
    P.dahlquist(lam=10.0, t_span=(0.0, 10.0))  # exactly at the limit: allowed
    with pytest.raises(ValueError, match="t_span"):
        P.pendulum(g_over_l=1e6, t_span=(0.0, 1e4 * (1 + 1e-12)))


def test_pendulum_energy_band_at_the_separatrix():
    """1 - m >= 1e-16 is allowed (exact finite over the longest span); below, ValueError
    naming q0 and p0; on and above the separatrix exact is None."""
    for q0, p0 in [
        (2 * math.acos(math.sqrt(2e-16)), 0.0),  # 1 - m = 2e-16, p0 = 0
        (0.0, 2 * (1 - 2.0**-53)),  # 1 - m = 2^-52, p0 != 0
        (-1000.0, 0.0),
        (1000.0, 0.0),
    ]:
        p = P.pendulum(q0=q0, p0=p0, t_span=(0.0, 1e7))
        assert p.exact is not None
        _check_problem(p)
    for q0, p0 in [(math.pi, 0.0), (2 * math.acos(math.sqrt(5e-17)), 0.0)]:
        with pytest.raises(ValueError, match="q0") as info:
            P.pendulum(q0=q0, p0=p0)
        assert "p0" in str(info.value) and "1e-16" in str(info.value)
    assert P.pendulum(q0=0.0, p0=2.0).exact is None  # the separatrix itself
    assert P.pendulum(q0=math.pi, p0=1e-3).exact is None  # rotation


def test_stiff_linear_counts_are_exact_at_their_ends():
    """n in [2, 200] and seed in [0, 2^32 - 1]: the ends work (n = 200 with the stiffest
    ratio and the longest span stays finite), one beyond them is refused by name; exact()
    refuses more than 1e7 / n times, whose result would pass 80 MB."""
    for kw in (dict(n=2), dict(n=200, stiffness=1e8, t_span=(0.0, 1e6)), dict(seed=2**32 - 1)):
        _check_problem(_call("stiff_linear", dict(kw, seed=kw.get("seed", 0))))
    for name, value in (("n", 1), ("n", 201), ("seed", -1), ("seed", 2**32)):
        with pytest.raises(ValueError, match=name):
            P.stiff_linear(**{name: value})
    p = P.stiff_linear(n=200)
    assert p.exact(np.zeros(50_000)).shape == (200, 50_000)
    with pytest.raises(ValueError, match=r"\bt\b"):
        p.exact(np.zeros(50_001))
