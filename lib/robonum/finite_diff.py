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
values for complex input we raise; ``abs(z) * z`` style damage that keeps a
complex output cannot be detected.

The step ``h`` here is absolute and used as given (no ``(x+h) - x``
trick), so an error-versus-h sweep shows the textbook behaviour.
"""
from __future__ import annotations

import numpy as np

from . import _validate as check

EPS = float(np.finfo(float).eps)
SCHEMES = ("forward", "central", "complex")


def optimal_h(scheme: str, x_scale: float = 1.0) -> float:
    """Rule-of-thumb step: ``√ε``, ``ε^(1/3)`` (times ``max(1, |x|)``), or ``1e-20`` for ``complex``."""
    check.one_of("scheme", scheme, SCHEMES)
    scale = max(1.0, abs(check.real("x_scale", x_scale)))
    return {"forward": EPS ** 0.5 * scale, "central": EPS ** (1 / 3) * scale,
            "complex": 1e-20}[scheme]


def _eval_real(f, x, m=None):
    out = np.asarray(f(x))
    if np.iscomplexobj(out) or out.dtype == object:
        raise TypeError(f"f must return real numbers, got dtype {out.dtype}")
    return _checked(np.asarray(out, dtype=float).ravel(), m)


def _eval_complex(f, z, m):
    out = np.asarray(f(z))
    if not np.iscomplexobj(out):
        raise TypeError("complex step: f returned real values for complex input, so it drops "
                        "the imaginary part (abs, comparisons, float(), math.*?); "
                        "use scheme='central' or make f complex-analytic")
    return _checked(out.ravel(), m)


def _checked(y, m):
    if m is not None and y.size != m:
        raise ValueError(f"f must return the same number of outputs every call ({m}), got {y.size}")
    if not np.all(np.isfinite(y)):
        raise ValueError(f"f(x) must be finite, got {y}")
    return y


def jacobian_fd(f, x, h=None, scheme: str = "central") -> np.ndarray:
    """Jacobian ``J[i, j] ≈ ∂f_i/∂x_j`` by ``scheme`` ∈ {forward, central, complex}, shape ``(m, n)``.

    Column ``j`` uses the step ``h e_j``: ``(f(x+he_j) - f(x))/h``,
    ``(f(x+he_j) - f(x-he_j))/(2h)`` or ``Im f(x+ihe_j)/h``.  ``h`` is a
    finite positive absolute step; ``None`` picks :func:`optimal_h` per
    component.  Costs ``n+1``, ``2n+1`` or ``n+1`` calls of ``f``.
    """
    check.callable_("f", f)
    check.one_of("scheme", scheme, SCHEMES)
    x = check.finite_vector("x", x)
    steps = [optimal_h(scheme, xj) if h is None else check.positive("h", h) for xj in x]
    f0 = _eval_real(f, x.copy())   # also fixes m and checks f(x) is real and finite
    m = f0.size
    J = np.empty((m, x.size))
    for j, hj in enumerate(steps):
        e = np.zeros(x.size)
        e[j] = hj
        if scheme == "forward":
            J[:, j] = (_eval_real(f, x + e, m) - f0) / hj
        elif scheme == "central":
            J[:, j] = (_eval_real(f, x + e, m) - _eval_real(f, x - e, m)) / (2.0 * hj)
        else:
            J[:, j] = _eval_complex(f, x + 1j * e, m).imag / hj
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


def error_vs_h(f, x, reference, hs=None, schemes=SCHEMES) -> dict:
    """Error ``max_ij |J_h - J_ref|`` of each scheme on a grid of steps ``hs``.

    ``reference`` is the exact Jacobian (shape ``(m, n)``, or ``(n,)`` for a
    scalar ``f``); ``hs`` defaults to ``10^-16 ... 10^-1`` (4 per decade).
    Returns ``{"h": hs, scheme: errors, ...}`` for plotting on log-log axes.
    """
    hs = np.logspace(-16, -1, 61) if hs is None else np.asarray(hs, dtype=float).ravel()
    if hs.size == 0 or not np.all(np.isfinite(hs)) or np.any(hs <= 0):
        raise ValueError("hs must be a non-empty array of finite steps > 0")
    if isinstance(schemes, str) or len(schemes) == 0:
        raise ValueError(f"schemes must be a non-empty tuple drawn from {SCHEMES}, got {schemes!r}")
    for s in schemes:
        check.one_of("schemes", s, SCHEMES)
    J0 = jacobian_fd(f, x, None, "central")
    ref = np.asarray(reference, dtype=float)
    if ref.size != J0.size or not np.all(np.isfinite(ref)):
        raise ValueError(f"reference must be a finite array with {J0.size} entries "
                         f"(Jacobian shape {J0.shape}), got shape {ref.shape}")
    ref = ref.reshape(J0.shape)
    out = {"h": hs}
    for s in schemes:
        out[s] = np.array([np.max(np.abs(jacobian_fd(f, x, h, s) - ref)) for h in hs])
    return out


def plot_error_vs_h(sweep: dict, ax=None, floor: float = EPS / 8):
    """Log-log plot of an :func:`error_vs_h` result; returns ``(ax, lines)``.

    Errors below ``floor`` (including exact zeros, common for the complex
    step) are drawn at ``floor`` because a log axis cannot show 0.
    """
    import matplotlib.pyplot as plt
    floor = check.positive("floor", floor)
    if ax is None:
        _, ax = plt.subplots()
    lines = []
    for name, err in sweep.items():
        if name != "h":
            lines += ax.loglog(sweep["h"], np.maximum(err, floor), "o-", ms=3, label=name)
    ax.set_xlabel("h")
    ax.set_ylabel("max |J_h - J|")
    ax.legend()
    return ax, lines
