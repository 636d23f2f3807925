"""The difference quotients and the complex step (see the package docstring for their errors)."""

from __future__ import annotations

import math
import warnings

import numpy as np

from .. import _validate as check
from ..autodiff._io import real_vector, show_x
from ..autodiff.domain import DomainError, show
from ..errors import EvaluationError, RobonumError

EPS = float(np.finfo(float).eps)
SCHEMES = ("forward", "central", "complex")
H_MIN_COMPLEX = float(np.finfo(float).tiny) / EPS  # 1.0e-292: f'(x) h stays normal for |f'| >= ε
# Size of one error_vs_h sweep.  Per call of f: arm_fk ~45 µs (11,000 calls ~ 0.5 s),
# sin_chain with n = 16 ~140 µs (~3 s at CALLS_MAX): a sweep stays within a few seconds.
HS_MAX = 1000
CALLS_MAX = 20_000
_DROPS_IM = (
    "complex step: f returned real values for complex input, so it drops the imaginary "
    "part (abs, comparisons, float(), math.*?); use scheme='central' or make f "
    "complex-analytic (a constant f must return a complex value, e.g. c + 0 * x)"
)


def optimal_h(scheme: str, x_scale: float = 1.0) -> float:
    """Rule-of-thumb step: ``√ε``, ``ε^(1/3)`` (times ``max(1, |x|)``), or ``1e-20`` for ``complex``."""
    check.one_of("scheme", scheme, SCHEMES)
    scale = max(1.0, abs(check.real("x_scale", x_scale)))
    return {"forward": EPS**0.5 * scale, "central": EPS ** (1 / 3) * scale, "complex": 1e-20}[
        scheme
    ]


def _step_problem(xj: float, j: int, h: float, scheme: str) -> str | None:
    """Why ``h`` cannot be used for ``scheme`` at ``x[j] = xj``; ``None`` if it can."""
    cap = max(1.0, abs(xj))
    if h > cap:
        return (
            f"is larger than max(1, |x[{j}]|) = {cap:g}; a step that large measures a "
            "secant, not a derivative"
        )
    if scheme == "complex":
        if h < H_MIN_COMPLEX:
            return (
                f"is too small for the complex step: Im f(x + ih) = f'(x) h would be a "
                f"subnormal double with fewer than 53 significant bits; use h >= "
                f"{H_MIN_COMPLEX:.3g} (1e-20 is customary)"
            )
        return None
    hi, lo = xj + h, xj - h
    if not (math.isfinite(hi) and math.isfinite(lo)):
        return f"takes x[{j}] = {xj!r} beyond the largest double"
    if hi == xj or (scheme == "central" and lo == xj):
        return (
            f"is below the spacing of doubles at x[{j}] = {xj!r} (math.ulp = "
            f"{math.ulp(xj):.3g}): x + h == x, so f would be differenced at one point"
        )
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
        raise EvaluationError(
            f"f raised {type(exc).__name__} at x = {show_x(arg)}: {exc}"[:600], reason="f_raised"
        ) from exc


def _values(out, m: int | None, complex_step: bool = False) -> np.ndarray:
    """``f``'s output as a finite 1-D float (complex for the complex step) array."""
    if isinstance(out, (str, bytes)):
        raise TypeError(f"f must return numbers, got a {type(out).__name__}")
    try:
        y = np.asarray(out)
    except (TypeError, ValueError) as exc:  # a ragged nested list
        raise TypeError(f"f must return a number or a 1-D array ({exc})"[:300]) from None
    if y.ndim > 1:
        raise ValueError(f"f must return a scalar or a 1-D array, got shape {y.shape}")
    kind = y.dtype.kind
    if complex_step and kind in "iuf":
        raise TypeError(_DROPS_IM)
    if kind == "c" and not complex_step:
        raise TypeError("f must return real numbers for real x, got complex values")
    if kind not in "iufc":  # bool, str, objects (None, a Dual, 10**400)
        first = y.ravel()[0] if y.size else None
        raise TypeError(
            f"f must return real numbers, got dtype {y.dtype} "
            f"(first value: {type(first).__name__} {show(first)})"[:300]
        )
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
    f0 = _values(_call(f, x.copy()), None)  # also fixes m and checks f(x) is real and finite
    m = f0.size
    J = np.empty((m, x.size))
    for j, hj in enumerate(steps):
        e = np.zeros(x.size)
        e[j] = hj
        with np.errstate(all="ignore"):  # an overflow is reported below, naming the column
            if scheme == "forward":
                col = (_values(_call(f, x + e), m) - f0) / hj
            elif scheme == "central":
                col = (_values(_call(f, x + e), m) - _values(_call(f, x - e), m)) / (2.0 * hj)
            else:
                col = (
                    _values(_call(f, x + 1j * e, complex_step=True), m, complex_step=True).imag / hj
                )
        if not np.all(np.isfinite(col)):
            raise DomainError(
                f"the {scheme} difference quotient of column {j} overflows a double "
                f"(h = {hj:g}); f's values are too large for this step"
            )
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
