"""Finite differences and the complex step, with their error as a function of h.

For a step ``h`` (``ε = 2.2e-16``, ``f`` of size ~1)::

    forward   (f(x+h) - f(x)) / h      = f' + (h/2) f''  + O(ε/h)
    central   (f(x+h) - f(x-h)) / (2h) = f' + (h²/6) f''' + O(ε/h)
    complex   Im f(x + ih) / h         = f' - (h²/6) f''' + O(ε)

Truncation falls with ``h``; rounding of a difference of nearly equal values
grows like ``ε/h``.  Balancing them gives ``h* ~ √ε``, error ``~ √ε``
(forward) and ``h* ~ ε^(1/3)``, error ``~ ε^(2/3)`` (central); :func:`error_model`
has the constants.  The complex step subtracts nothing: any ``h <= 1e-8``
gives ``f'`` to a few ``ε``, but only for complex-analytic ``f`` (numpy or
:mod:`robonum.autodiff` functions; ``abs``, comparisons, ``float()``, ``math.*``
destroy the imaginary part).  Real output for complex input and numpy's
``ComplexWarning`` are refused; ``abs(z) * z`` keeps a complex output and
cannot be detected.  References: Nocedal & Wright (2006), sec. 8.1; Squire &
Trapp, SIAM Review 40(1), 1998; Martins, Sturdza & Alonso, ACM TOMS 29(3), 2003.

Steps are absolute and used as given (no ``(x+h) - x`` trick), with
``0 < h <= max(1, |x_j|)``; for forward/central differences ``x_j ± h`` must
differ from ``x_j`` (:func:`usable_steps`), for the complex step
``h >= tiny/ε ≈ 1e-292``.  Bad input is a ``TypeError``/``ValueError`` naming
the parameter, an exception inside ``f`` an :class:`~robonum.errors.EvaluationError`,
an overflowing quotient a :class:`~robonum.autodiff.DomainError`.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from . import _validate as check
from .autodiff._io import real_vector, show_x
from .autodiff.domain import DomainError, show
from .errors import EvaluationError, RobonumError

EPS = float(np.finfo(float).eps)
SCHEMES = ("forward", "central", "complex")
H_MIN_COMPLEX = float(np.finfo(float).tiny) / EPS   # 1.0e-292: f'(x) h stays normal for |f'| >= ε
# Size of one error_vs_h sweep.  Per call of f: arm_fk ~45 µs (11,000 calls ~ 0.5 s),
# sin_chain with n = 16 ~140 µs (~3 s at CALLS_MAX): a sweep stays within a few seconds.
HS_MAX = 1000
CALLS_MAX = 20_000
_DROPS_IM = ("complex step: f returned real values for complex input, so it drops the imaginary "
             "part (abs, comparisons, float(), math.*?); use scheme='central' or make f "
             "complex-analytic (a constant f must return a complex value, e.g. c + 0 * x)")


def optimal_h(scheme: str, x_scale: float = 1.0) -> float:
    """Rule-of-thumb step: ``√ε``, ``ε^(1/3)`` (times ``max(1, |x|)``), or ``1e-20`` for ``complex``."""
    check.one_of("scheme", scheme, SCHEMES)
    scale = max(1.0, abs(check.real("x_scale", x_scale)))
    return {"forward": EPS ** 0.5 * scale, "central": EPS ** (1 / 3) * scale,
            "complex": 1e-20}[scheme]


def _step_problem(xj: float, j: int, h: float, scheme: str) -> str | None:
    """Why ``h`` cannot be used for ``scheme`` at ``x[j] = xj``; ``None`` if it can."""
    cap = max(1.0, abs(xj))
    if h > cap:
        return (f"is larger than max(1, |x[{j}]|) = {cap:g}; a step that large measures a "
                "secant, not a derivative")
    if scheme == "complex":
        if h < H_MIN_COMPLEX:
            return (f"is too small for the complex step: Im f(x + ih) = f'(x) h would be a "
                    f"subnormal double with fewer than 53 significant bits; use h >= "
                    f"{H_MIN_COMPLEX:.3g} (1e-20 is customary)")
        return None
    hi, lo = xj + h, xj - h
    if not (math.isfinite(hi) and math.isfinite(lo)):
        return f"takes x[{j}] = {xj!r} beyond the largest double"
    if hi == xj or (scheme == "central" and lo == xj):
        return (f"is below the spacing of doubles at x[{j}] = {xj!r} (np.spacing = "
                f"{float(np.spacing(xj)):.3g}): x + h == x, so f would be differenced at one point")
    return None


def _steps(x: np.ndarray, h, scheme: str) -> list[float]:
    steps = [optimal_h(scheme, xj) for xj in x] if h is None else [check.positive("h", h)] * x.size
    for j, (xj, hj) in enumerate(zip(x, steps)):
        problem = _step_problem(float(xj), j, hj, scheme)
        if problem:
            raise ValueError(f"h = {hj:g} {problem}" + (" (h=None picked it)" if h is None else ""))
    return steps


def _call(f, arg, complex_step: bool = False):
    """``f(arg)``; its exceptions become errors that name ``f`` (see robonum.autodiff)."""
    try:
        if not complex_step:
            return f(arg)
        with warnings.catch_warnings():
            # numpy casting complex to real inside f always means a wrong derivative
            warnings.simplefilter("error", np.exceptions.ComplexWarning)
            return f(arg)
    except np.exceptions.ComplexWarning as exc:
        raise TypeError(f"{_DROPS_IM} [{exc}]") from None
    except RobonumError:
        raise
    except Exception as exc:
        raise EvaluationError(f"f raised {type(exc).__name__} at x = {show_x(arg)}: {exc}"[:600],
                              reason="f_raised") from exc


def _values(out, m: int | None, complex_step: bool = False) -> np.ndarray:
    """``f``'s output as a finite 1-D float (complex for the complex step) array."""
    if isinstance(out, (str, bytes)):
        raise TypeError(f"f must return numbers, got a {type(out).__name__}")
    try:
        y = np.asarray(out)
    except (TypeError, ValueError) as exc:       # a ragged nested list
        raise TypeError(f"f must return a number or a 1-D array ({exc})"[:300]) from None
    if y.ndim > 1:
        raise ValueError(f"f must return a scalar or a 1-D array, got shape {y.shape}")
    kind = y.dtype.kind
    if complex_step and kind in "iuf":
        raise TypeError(_DROPS_IM)
    if kind == "c" and not complex_step:
        raise TypeError("f must return real numbers for real x, got complex values")
    if kind not in "iufc":                       # bool, str, objects (None, a Dual, 10**400)
        first = y.ravel()[0] if y.size else None
        raise TypeError(f"f must return real numbers, got dtype {y.dtype} "
                        f"(first value: {type(first).__name__} {show(first)})"[:300])
    y = y.ravel().astype(complex if complex_step else float)
    if y.size == 0:
        raise ValueError("f must return at least one value, got an empty array")
    if m is not None and y.size != m:
        raise ValueError(f"f must return the same number of outputs every call ({m}), got {y.size}")
    if not np.all(np.isfinite(y)):
        raise ValueError(f"f(x) must be finite, got {show_x(y)}")
    return y


def jacobian_fd(f, x, h=None, scheme: str = "central") -> np.ndarray:
    """Jacobian ``J[i, j] ≈ ∂f_i/∂x_j`` by ``scheme`` ∈ {forward, central, complex}, shape ``(m, n)``.

    Column ``j`` uses the step ``h e_j``: ``(f(x+he_j) - f(x))/h``,
    ``(f(x+he_j) - f(x-he_j))/(2h)`` or ``Im f(x+ihe_j)/h``.  ``h`` is a
    finite positive absolute step (limits in the module docstring); ``None``
    picks :func:`optimal_h` per component.  Costs ``n+1``, ``2n+1`` or ``n+1``
    calls of ``f``, which receives a float (complex) array of shape ``(n,)``
    and returns a scalar or a 1-D array.
    """
    check.callable_("f", f)
    check.one_of("scheme", scheme, SCHEMES)
    x = real_vector("x", x)
    steps = _steps(x, h, scheme)
    f0 = _values(_call(f, x.copy()), None)   # also fixes m and checks f(x) is real and finite
    m = f0.size
    J = np.empty((m, x.size))
    for j, hj in enumerate(steps):
        e = np.zeros(x.size)
        e[j] = hj
        with np.errstate(all="ignore"):      # an overflow is reported below, naming the column
            if scheme == "forward":
                col = (_values(_call(f, x + e), m) - f0) / hj
            elif scheme == "central":
                col = (_values(_call(f, x + e), m) - _values(_call(f, x - e), m)) / (2.0 * hj)
            else:
                col = _values(_call(f, x + 1j * e, complex_step=True), m, complex_step=True).imag / hj
        if not np.all(np.isfinite(col)):
            raise DomainError(f"the {scheme} difference quotient of column {j} overflows a double "
                              f"(h = {hj:g}); f's values are too large for this step")
        J[:, j] = col
    return J


def gradient_fd(f, x, h=None, scheme: str = "central") -> np.ndarray:
    """Gradient of a scalar ``f: R^n -> R`` by :func:`jacobian_fd`; shape ``(n,)``."""
    J = jacobian_fd(f, x, h, scheme)
    if J.shape[0] != 1:
        raise ValueError(f"f must return a scalar for gradient_fd, got {J.shape[0]} outputs")
    return J[0]


def derivative_fd(f, x, h=None, scheme: str = "central") -> float:
    """``f'(x)`` of a scalar function of one variable; ``f`` receives a float (complex for ``complex``)."""
    check.callable_("f", f)
    x = check.real("x", x)
    J = jacobian_fd(lambda v: f(v[0]), [x], h, scheme)
    if J.shape[0] != 1:
        raise ValueError(f"f must return a scalar for derivative_fd, got {J.shape[0]} outputs")
    return float(J[0, 0])


def _schemes(schemes) -> tuple:
    if isinstance(schemes, str) or not isinstance(schemes, (tuple, list)) or len(schemes) == 0:
        raise (ValueError if isinstance(schemes, (str, tuple, list)) else TypeError)(
            f"schemes must be a non-empty tuple drawn from {SCHEMES}, got {show(schemes)}")
    for s in schemes:
        check.one_of("schemes", s, SCHEMES)
    if len(set(schemes)) != len(schemes):
        raise ValueError(f"schemes must not repeat a scheme, got {tuple(schemes)}")
    return tuple(schemes)


_GRID = np.logspace(-16, -1, 61)        # the default steps (times max(1, |x|)), 4 per decade


def usable_steps(x, hs, scheme: str) -> np.ndarray:
    """The steps of ``hs`` that ``scheme`` accepts at ``x`` (the others vanish next to ``x``,
    exceed ``max(1, |x_j|)``, or, for the complex step, are below ``1e-292``)."""
    check.one_of("scheme", scheme, SCHEMES)
    x, hs = real_vector("x", x), real_vector("hs", hs, max_size=HS_MAX)
    if np.any(hs <= 0.0):
        raise ValueError("hs must be steps > 0")
    return hs[[not any(_step_problem(float(xj), j, float(h), scheme) for j, xj in enumerate(x))
               for h in hs]]


def _sweep_steps(x: np.ndarray, hs: np.ndarray | None, schemes: tuple) -> np.ndarray:
    if hs is None:                       # the default grid without the steps that vanish next to x
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
    check.count("the number of calls of f", (_GRID.size if hs is None else hs.size) * per_h,
                CALLS_MAX, "use fewer steps hs, fewer schemes or fewer inputs x")
    hs = _sweep_steps(x, hs, schemes)        # checked after the count: it loops over x
    ref = check.real_array("reference", reference)
    J0 = jacobian_fd(f, x, None, "central")
    if not (ref.shape == J0.shape or (J0.shape[0] == 1 and ref.shape == (n,))):
        raise ValueError(f"reference must be the exact Jacobian of shape {J0.shape}"
                         + (f" or ({n},)" if J0.shape[0] == 1 else "") + f", got shape {ref.shape}")
    ref = ref.reshape(J0.shape)
    out = {"h": hs}
    for s in schemes:
        with np.errstate(over="ignore"):     # |J_h - J| of two huge finite values; checked below
            out[s] = np.array([np.max(np.abs(jacobian_fd(f, x, h, s) - ref)) for h in hs])
        if not np.all(np.isfinite(out[s])):
            raise DomainError(f"the {s} error |J_h - reference| overflows a double")
    return out


_SCALE_STEPS = (2.0 ** -17, 2.0 ** -13, 2.0 ** -10)   # ~ε^(1/3), ε^(1/4), ε^(1/5): exact next to |x| < 2^30


def _scales(f, x: np.ndarray, m: int) -> np.ndarray:
    """Rows F, D1, D2, D3 per column j: max_i |f_i|, |∂_j^k f_i| at x, by central differences
    with power-of-two steps (exact next to |x_j| < 2^30); ~1e-6 relative for f varying on a scale ~1."""
    h1, h2, h3 = _SCALE_STEPS
    f0 = _values(_call(f, x.copy()), m)
    out = np.empty((4, x.size))
    for j, e in enumerate(np.eye(x.size)):
        def at(k, h, e=e):
            return _values(_call(f, x + (k * h) * e), m)
        with np.errstate(all="ignore"):      # an overflow is reported by error_model
            d1 = (at(1, h1) - at(-1, h1)) / (2 * h1)
            d2 = (at(1, h2) - 2 * f0 + at(-1, h2)) / h2 ** 2
            d3 = (at(2, h3) - 2 * at(1, h3) + 2 * at(-1, h3) - at(-2, h3)) / (2 * h3 ** 3)
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
    a, b, p = {"forward": (np.max(D2) / 2, EPS * np.max(F + X * D1 / 2), 1),
               "central": (np.max(D3) / 6, EPS * np.max(F + X * D1) / 2, 2),
               "complex": (np.max(D3) / 6, EPS * np.max(D1) / 2, 2)}[scheme]
    if not (np.all(np.isfinite([F, D1, D2, D3])) and math.isfinite(a * b)):
        raise DomainError("the derivatives of f overflow a double; the error model needs f of moderate size")
    trunc, rnd = a * hs ** p, (np.full(hs.size, b) if scheme == "complex" else b / hs)
    if a == 0:                       # no truncation error: no balance point
        h_opt, e_opt = None, (float(b) if scheme == "complex" else None)
    elif scheme == "complex":        # T = R at h*; below it the error stays R
        h_opt, e_opt = math.sqrt(b / a), float(b)
    else:                            # minimum of a h^p + b/h
        h_opt = (b / (p * a)) ** (1 / (p + 1))
        e_opt = float(a * h_opt ** p + b / h_opt)
    return {"h": hs, "truncation": trunc, "rounding": rnd, "total": trunc + rnd,
            "h_opt": None if h_opt is None else float(h_opt), "e_opt": e_opt}
