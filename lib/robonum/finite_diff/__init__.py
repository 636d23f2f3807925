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

from .derivatives import (
    CALLS_MAX,
    EPS,
    H_MIN_COMPLEX,
    HS_MAX,
    SCHEMES,
    derivative_fd,
    gradient_fd,
    jacobian_fd,
    optimal_h,
)
from .errors_vs_h import error_model, error_vs_h, usable_steps

__all__ = [
    "derivative_fd",
    "gradient_fd",
    "jacobian_fd",
    "optimal_h",
    "error_vs_h",
    "error_model",
    "usable_steps",
    "SCHEMES",
    "EPS",
    "H_MIN_COMPLEX",
    "HS_MAX",
    "CALLS_MAX",
]
