"""The error of a difference quotient as a function of ``h``: measured sweeps and the model.

:func:`error_vs_h` measures ``|J_h - J|`` over a grid of steps for each scheme;
:func:`error_model` predicts it, ``a h^p + b/h`` (truncation plus rounding), from
estimated derivatives of ``f``; :func:`usable_steps` drops the steps that vanish
next to ``x``.  See the package docstring for the formulas and references.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validate as check
from ..autodiff._io import real_vector
from ..autodiff.domain import DomainError, show
from .derivatives import (
    CALLS_MAX,
    EPS,
    HS_MAX,
    SCHEMES,
    _call,
    _step_problem,
    _values,
    jacobian_fd,
)


def _schemes(schemes) -> tuple:
    if isinstance(schemes, str) or not isinstance(schemes, (tuple, list)) or len(schemes) == 0:
        raise (ValueError if isinstance(schemes, (str, tuple, list)) else TypeError)(
            f"schemes must be a non-empty tuple drawn from {SCHEMES}, got {show(schemes)}"
        )
    for s in schemes:
        check.one_of("schemes", s, SCHEMES)
    if len(set(schemes)) != len(schemes):
        raise ValueError(f"schemes must not repeat a scheme, got {tuple(schemes)}")
    return tuple(schemes)


_GRID = np.logspace(-16, -1, 61)  # the default steps (times max(1, |x|)), 4 per decade


def usable_steps(x, hs, scheme: str) -> np.ndarray:
    """The steps of ``hs`` that ``scheme`` accepts at ``x`` (the others vanish next to ``x``,
    exceed ``max(1, |x_j|)``, or, for the complex step, are below ``1e-292``)."""
    check.one_of("scheme", scheme, SCHEMES)
    x, hs = real_vector("x", x), real_vector("hs", hs, max_size=HS_MAX)
    if np.any(hs <= 0.0):
        raise ValueError("hs must be steps > 0")
    return hs[
        [
            not any(_step_problem(float(xj), j, float(h), scheme) for j, xj in enumerate(x))
            for h in hs
        ]
    ]


def _sweep_steps(x: np.ndarray, hs: np.ndarray | None, schemes: tuple) -> np.ndarray:
    if hs is None:  # the default grid without the steps that vanish next to x
        usable = _GRID * max(1.0, float(np.max(np.abs(x))))
        for s in schemes:
            usable = usable_steps(x, usable, s) if usable.size else usable
        if not usable.size:
            raise ValueError("no step of the default grid is usable at this x; pass hs")
        return usable
    for i, h in enumerate(hs):
        if not h > 0.0:
            raise ValueError(f"hs must be steps > 0, got hs[{i}] = {float(h)!r}")
        for s in schemes:
            for j, xj in enumerate(x):
                problem = _step_problem(float(xj), j, float(h), s)
                if problem:
                    raise ValueError(f"hs[{i}] = {h:g} {problem} (scheme {s!r})")
    return hs


def error_vs_h(f, x, reference, hs=None, schemes=SCHEMES) -> dict:
    """Error ``max_ij |J_h - J_ref|`` of each scheme on a grid of steps ``hs``.

    ``reference`` is the exact Jacobian (shape ``(m, n)``, or ``(n,)`` for a
    scalar ``f``); ``hs`` (at most ``HS_MAX`` steps) defaults to
    ``10^-16 ... 10^-1`` (4 per decade) times ``max(1, |x|)``, leaving out steps
    that vanish next to ``x``.  The whole sweep may call ``f`` at most
    ``CALLS_MAX`` times.  Returns ``{"h": hs, scheme: errors, ...}`` for
    plotting on log-log axes (:func:`robonum.plotting.plot_error_vs_h`).
    """
    check.callable_("f", f)
    x = real_vector("x", x)
    schemes = _schemes(schemes)
    hs = None if hs is None else real_vector("hs", hs, max_size=HS_MAX)
    n = x.size
    per_h = sum({"forward": n + 1, "central": 2 * n + 1, "complex": n + 1}[s] for s in schemes)
    check.count(
        "the number of calls of f",
        (_GRID.size if hs is None else hs.size) * per_h,
        CALLS_MAX,
        "use fewer steps hs, fewer schemes or fewer inputs x",
    )
    hs = _sweep_steps(x, hs, schemes)  # checked after the count: it loops over x
    ref = check.real_array("reference", reference)
    J0 = jacobian_fd(f, x, None, "central")
    if not (ref.shape == J0.shape or (J0.shape[0] == 1 and ref.shape == (n,))):
        raise ValueError(
            f"reference must be the exact Jacobian of f at x, shape {J0.shape}"
            + (f" or ({n},)" if J0.shape[0] == 1 else "")
            + f" (f returns {J0.shape[0]} value(s), x has {n}), got shape {ref.shape}"
        )
    ref = ref.reshape(J0.shape)
    out = {"h": hs}
    for s in schemes:
        with np.errstate(over="ignore"):  # |J_h - J| of two huge finite values; checked below
            out[s] = np.array([np.max(np.abs(jacobian_fd(f, x, h, s) - ref)) for h in hs])
        if not np.all(np.isfinite(out[s])):
            raise DomainError(f"the {s} error |J_h - reference| overflows a double")
    return out


_SCALE_STEPS = (
    2.0**-17,
    2.0**-13,
    2.0**-10,
)  # ~ε^(1/3), ε^(1/4), ε^(1/5): exact next to |x| < 2^30


def _scales(f, x: np.ndarray, m: int) -> np.ndarray:
    """Rows F, D1, D2, D3 per column j: max_i |f_i|, |∂_j^k f_i| at x, by central differences
    with power-of-two steps (exact next to |x_j| < 2^30); ~1e-6 relative for f varying on a scale ~1."""
    h1, h2, h3 = _SCALE_STEPS
    f0 = _values(_call(f, x.copy()), m)
    out = np.empty((4, x.size))
    for j, e in enumerate(np.eye(x.size)):

        def at(k, h, e=e):
            return _values(_call(f, x + (k * h) * e), m)

        with np.errstate(all="ignore"):  # an overflow is reported by error_model
            d1 = (at(1, h1) - at(-1, h1)) / (2 * h1)
            d2 = (at(1, h2) - 2 * f0 + at(-1, h2)) / h2**2
            d3 = (at(2, h3) - 2 * at(1, h3) + 2 * at(-1, h3) - at(-2, h3)) / (2 * h3**3)
            out[:, j] = [np.max(np.abs(v)) for v in (f0, d1, d2, d3)]
    return out


def error_model(f, x, hs, scheme: str = "forward") -> dict:
    """Model of :func:`error_vs_h`'s error, truncation + rounding, and the step that balances them.

    Per column ``j``, with ``F = |f|``, ``D_k = |∂_j^k f|`` (largest over the
    outputs, estimated by :func:`_scales`) and ``X = |x_j|``::

        forward   T = D2 h/2     R = ε (F + X D1/2) / h
        central   T = D3 h²/6    R = ε (F + X D1) / (2h)
        complex   T = D3 h²/6    R = ε D1 / 2

    ``R`` counts one rounding (``u = ε/2``) per value of ``f`` and per stored
    ``x ± h``; the largest ``T`` and ``R`` over columns are used: an
    order-of-magnitude estimate, not a bound.  Returns ``{"h", "truncation",
    "rounding", "total", "h_opt", "e_opt"}`` (``a h + b/h``: ``h* = √(b/a)``;
    ``a h² + b/h``: ``h* = (b/(2a))^(1/3)``; complex: ``h* = √(6R/D3)``, below
    which the error stays ``R``).  Reference: Nocedal & Wright (2006), sec. 8.1.
    """
    check.callable_("f", f)
    check.one_of("scheme", scheme, SCHEMES)
    x = real_vector("x", x)
    check.count("the number of calls of f", 9 * x.size + 1, CALLS_MAX, "use fewer inputs x")
    hs = real_vector("hs", hs, max_size=HS_MAX)
    if np.any(hs <= 0.0) or np.any(hs > 1e6):
        raise ValueError("hs must be steps in (0, 1e6]")
    m = _values(_call(f, x.copy()), None).size
    F, D1, D2, D3 = _scales(f, x, m)
    X = np.abs(x)
    a, b, p = {
        "forward": (np.max(D2) / 2, EPS * np.max(F + X * D1 / 2), 1),
        "central": (np.max(D3) / 6, EPS * np.max(F + X * D1) / 2, 2),
        "complex": (np.max(D3) / 6, EPS * np.max(D1) / 2, 2),
    }[scheme]
    if not (np.all(np.isfinite([F, D1, D2, D3])) and math.isfinite(a * b)):
        raise DomainError(
            "the derivatives of f overflow a double; the error model needs f of moderate size"
        )
    trunc, rnd = a * hs**p, (np.full(hs.size, b) if scheme == "complex" else b / hs)
    if a == 0:  # no truncation error: no balance point
        h_opt, e_opt = None, (float(b) if scheme == "complex" else None)
    elif scheme == "complex":  # T = R at h*; below it the error stays R
        h_opt, e_opt = math.sqrt(b / a), float(b)
    else:  # minimum of a h^p + b/h
        h_opt = (b / (p * a)) ** (1 / (p + 1))
        e_opt = float(a * h_opt**p + b / h_opt)
    return {
        "h": hs,
        "truncation": trunc,
        "rounding": rnd,
        "total": trunc + rnd,
        "h_opt": None if h_opt is None else float(h_opt),
        "e_opt": e_opt,
    }
