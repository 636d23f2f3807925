"""Finite differences and the complex step, with their error as a function of h.

For a step ``h`` (``ε = eps = 2.2e-16``, ``f`` of size ~1)::

    forward   (f(x+h) - f(x)) / h      = f' + (h/2) f''  + O(ε/h)
    central   (f(x+h) - f(x-h)) / (2h) = f' + (h²/6) f''' + O(ε/h)
    complex   Im f(x + ih) / h         = f' - (h²/6) f''' + O(ε)

Truncation falls with ``h`` (``O(h)``, ``O(h²)``); rounding of the
subtraction of two nearly equal values grows like ``ε/h``.  Balancing the
two gives ``h* ~ √ε ≈ 1.5e-8`` with error ``~ √ε`` for forward differences
and ``h* ~ ε^(1/3) ≈ 6e-6`` with error ``~ ε^(2/3) ≈ 4e-11`` for central
differences.  The complex step subtracts nothing, so its rounding does not
depend on ``h``: any ``h <= 1e-8`` gives ``f'`` to a few ``ε``.
References: Nocedal & Wright, *Numerical Optimization* (2nd ed., 2006), sec. 8.1;
Squire & Trapp, SIAM Review 40(1), 1998; Martins, Sturdza & Alonso, "The
complex-step derivative approximation", ACM TOMS 29(3), 2003.

The complex step needs ``f`` to be complex-analytic along the way: it must
accept complex input (use :mod:`robonum.autodiff.functions` or numpy, not
``math``).  ``abs``, comparisons, ``np.real``, ``float()`` silently destroy
the imaginary part and give **wrong** derivatives.  When ``f`` returns real
values for complex input, or numpy casts complex to real inside ``f``
(``ComplexWarning``), we raise; ``abs(z) * z`` style damage that keeps a
complex output cannot be detected.

The step ``h`` here is absolute and used as given (no ``(x+h) - x``
trick), so an error-versus-h sweep shows the textbook behaviour.  Steps
must satisfy ``0 < h <= max(1, |x_j|)``; for forward/central differences
``x_j ± h`` must differ from ``x_j`` (a step below ``np.spacing(x_j)/2``
vanishes), for the complex step ``h >= tiny/ε ≈ 1e-292`` (``f'(x) h`` must
stay a normal double).  Errors follow :mod:`robonum.autodiff`: bad input is a
``TypeError``/``ValueError`` naming the parameter, an exception inside ``f``
an :class:`~robonum.errors.EvaluationError`, an overflowing difference
quotient a :class:`~robonum.autodiff.DomainError`.
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
# Size of one error_vs_h sweep.  Measured per call of f, differencing included:
# arm_fk ~45 µs (1000 steps x 3 schemes = 11,000 calls ~ 0.5 s), sin_chain with
# n = 16 ~140 µs (~3 s at CALLS_MAX); so a sweep of the chapter's functions stays
# within a few seconds.
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
        if scheme == "forward":
            fp = _values(_call(f, x + e), m)
        elif scheme == "central":
            fp, fm = _values(_call(f, x + e), m), _values(_call(f, x - e), m)
        else:
            fc = _values(_call(f, x + 1j * e, complex_step=True), m, complex_step=True)
        with np.errstate(all="ignore"):      # an overflow is reported below, naming the column
            if scheme == "forward":
                col = (fp - f0) / hj
            elif scheme == "central":
                col = (fp - fm) / (2.0 * hj)
            else:
                col = fc.imag / hj
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


def _sweep_steps(x: np.ndarray, hs: np.ndarray | None, schemes: tuple) -> np.ndarray:
    if hs is None:
        # the default grid without the steps that vanish next to x
        grid = _GRID * max(1.0, float(np.max(np.abs(x))))
        usable = [h for h in grid if not any(_step_problem(float(xj), j, h, s)
                                             for s in schemes for j, xj in enumerate(x))]
        if not usable:
            raise ValueError("no step of the default grid is usable at this x; pass hs")
        return np.array(usable)
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
