"""Test functions for the differentiation chapter: a planar 2-link arm and a chain sum.

The forward kinematics is written once with :mod:`robonum.autodiff.functions`,
so the same code evaluates on floats, complex numbers (complex step),
:class:`~robonum.autodiff.Dual` (forward mode) and
:class:`~robonum.autodiff.Var` (reverse mode).

Planar 2R arm (Lynch & Park, *Modern Robotics*, 2017, sec. 5.1, planar 2R example)::

    p(q) = [ l1 cos q1 + l2 cos(q1 + q2),
             l1 sin q1 + l2 sin(q1 + q2) ]

with ``l1 = 1``, ``l2 = 0.7`` as in the chapter.  Link lengths are finite
floats in ``(0, L_MAX]`` metres: a link longer than a kilometre is a unit
mistake (millimetres entered as metres), not a robot.  Inputs follow the
error policy of :mod:`robonum.autodiff` (``TypeError``/``ValueError`` naming
the parameter).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from . import _validate as check
from .autodiff._io import real_vector
from .autodiff.forward import Dual
from .autodiff.functions import cos, sin
from .autodiff.reverse import Var

L1 = 1.0
L2 = 0.7
L_MAX = 1e3  # m; see the module docstring
_FLOATS = (float, np.float64)
X_MAX = 10**6  # entries of a sin_chain input: the pure-Python loop takes ~2 s there (measured)


def _entry(name: str, v):
    """One coordinate: a finite real or complex number, a Dual or a Var.

    A numeric numpy array is one coordinate evaluated at many points at once
    (``scipy.differentiate`` calls ``arm_fk`` that way).
    """
    if isinstance(v, (Dual, Var)) or (type(v) in _FLOATS and math.isfinite(v)):
        return v  # Dual/Var are finite by construction; floats: fast path
    if isinstance(v, np.ndarray) and v.dtype.kind in "iufc":
        if not np.all(np.isfinite(v)):
            raise ValueError(f"{name} must contain only finite values (no NaN or inf)")
        return v
    if isinstance(v, (bool, np.bool_)):
        raise TypeError(f"{name} must be a number, got bool {v!r}")
    if isinstance(v, numbers.Real):
        check.real(name, v)  # refuses NaN, inf and ints too large for a double
        return v
    if isinstance(v, numbers.Complex):
        z = complex(v)
        if not (math.isfinite(z.real) and math.isfinite(z.imag)):
            raise ValueError(f"{name} must be finite, got {v!r}")
        return v
    raise TypeError(f"{name} must be a float, complex, Dual or Var, got {type(v).__name__}")


def _pair(q):
    if isinstance(q, (str, bytes)) or not hasattr(q, "__len__") or not hasattr(q, "__getitem__"):
        raise TypeError(f"q must be a sequence of 2 joint angles, got {type(q).__name__}")
    if len(q) != 2:
        raise ValueError(f"q must hold exactly 2 joint angles (q1, q2), got {len(q)}")
    q1, q2 = _entry("q[0]", q[0]), _entry("q[1]", q[1])
    try:
        if isinstance(q1, np.ndarray) or isinstance(q2, np.ndarray):
            np.broadcast_shapes(np.shape(q1), np.shape(q2))
    except ValueError:
        raise ValueError(
            f"q[0] and q[1] must have broadcastable shapes, got {np.shape(q1)} and {np.shape(q2)}"
        ) from None
    return q1, q2


def _links(l1, l2) -> tuple[float, float]:
    if type(l1) is float and type(l2) is float and 0.0 < l1 <= L_MAX and 0.0 < l2 <= L_MAX:
        return l1, l2  # fast path (NaN fails the comparisons)
    return check.positive("l1", l1, hi=L_MAX), check.positive("l2", l2, hi=L_MAX)


def arm_fk(q, l1: float = L1, l2: float = L2):
    """End-effector position ``p(q) = (l1 c1 + l2 c12, l1 s1 + l2 s12)``.

    ``q`` is any length-2 sequence of finite floats, complex numbers, Duals or
    Vars; returns a numpy array of shape (2,) of the same kind (object for
    Dual/Var).  ``l1``, ``l2`` are floats in ``(0, L_MAX]``.
    """
    q1, q2 = _pair(q)
    l1, l2 = _links(l1, l2)
    q12 = q1 + q2
    x = l1 * cos(q1) + l2 * cos(q12)
    y = l1 * sin(q1) + l2 * sin(q12)
    return np.array([x, y])


def arm_jacobian(q, l1: float = L1, l2: float = L2) -> np.ndarray:
    """Analytic Jacobian ``∂p/∂q`` of :func:`arm_fk` at real ``q``::

    J = [[-l1 s1 - l2 s12, -l2 s12],
         [ l1 c1 + l2 c12,  l2 c12]]
    """
    qv = real_vector("q", q)
    if qv.size != 2:
        raise ValueError(f"q must hold exactly 2 joint angles (q1, q2), got {qv.size}")
    l1, l2 = _links(l1, l2)
    q1, q2 = float(qv[0]), float(qv[1])
    q12 = q1 + q2
    # math (libm), the same functions the Dual/Var code calls, not numpy's SIMD loops
    s1, c1, s12, c12 = math.sin(q1), math.cos(q1), math.sin(q12), math.cos(q12)
    return np.array([[-l1 * s1 - l2 * s12, -l2 * s12], [l1 * c1 + l2 * c12, l2 * c12]])


def _chain_input(x):
    """``x`` checked as a 1-D sequence of 2 .. X_MAX numbers (floats, complex, Duals, Vars)."""
    if isinstance(x, np.ndarray):
        if x.ndim != 1:
            raise ValueError(f"x must be a 1-D array, got shape {x.shape}")
        if x.dtype.kind in "iufc":  # numeric: check all entries at once
            if not np.all(np.isfinite(x)):
                raise ValueError("x must contain only finite values (no NaN or inf)")
            entries_ok = True
        elif x.dtype.kind != "O":
            raise TypeError(f"x must hold numbers, got dtype {x.dtype}")
        else:
            entries_ok = False
    elif isinstance(x, (list, tuple)):
        entries_ok = False
    else:
        raise TypeError(f"x must be a 1-D sequence of numbers, got {type(x).__name__}")
    if len(x) < 2:
        raise ValueError(f"x must have at least 2 entries, got {len(x)}")
    check.count("len(x)", len(x), X_MAX, "sin_chain is a pure-Python loop; use fewer entries")
    if not entries_ok:
        for i, v in enumerate(x):
            _entry(f"x[{i}]", v)
    return x


def sin_chain(x):
    """The chapter's scalar test function ``f(x) = Σ_{i=1}^{n-1} sin(x_i) x_{i+1}``.

    Written as a plain loop so it runs on floats, complex numbers, Duals and Vars;
    ``x`` is a 1-D sequence of 2 to ``X_MAX`` finite entries.
    """
    x = _chain_input(x)
    total = sin(x[0]) * x[1]
    for i in range(1, len(x) - 1):
        total = total + sin(x[i]) * x[i + 1]
    return total


def sin_chain_grad(x) -> np.ndarray:
    """Hand-derived gradient of :func:`sin_chain` at real ``x``:
    ``∂f/∂x_k = cos(x_k) x_{k+1} [k < n] + sin(x_{k-1}) [k > 1]``.
    """
    x = real_vector("x", x, min_size=2, max_size=X_MAX)
    g = np.zeros_like(x)
    g[:-1] += np.cos(x[:-1]) * x[1:]
    g[1:] += np.sin(x[:-1])
    return g
