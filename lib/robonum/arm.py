"""Test functions for the differentiation chapters: planar arms (2 links, n links) and a chain sum.

The forward kinematics is written once with :mod:`robonum.autodiff.functions`,
so the same code evaluates on floats, complex numbers (complex step),
:class:`~robonum.autodiff.Dual` (forward mode) and
:class:`~robonum.autodiff.Var` (reverse mode).

Planar 2R arm (Lynch & Park, *Modern Robotics*, 2017, sec. 5.1, planar 2R example)::

    p(q) = [ l1 cos q1 + l2 cos(q1 + q2),
             l1 sin q1 + l2 sin(q1 + q2) ]

with ``l1 = 1``, ``l2 = 0.7`` as in the chapter.  Link lengths are finite
floats in ``(0, L_MAX]`` metres: a link longer than a kilometre is a unit
mistake (millimetres entered as metres), not a robot.  The planar n-link arm
(:func:`planar_fk`, :func:`planar_jacobian`) is the same kinematics with
``θ_k = q_1 + ... + q_k`` and ``p = Σ_k l_k (cos θ_k, sin θ_k)``; with
``lengths=(l1, l2)`` it performs the operations of :func:`arm_fk` in the same order.
Inputs follow the
error policy of :mod:`robonum.autodiff` (``TypeError``/``ValueError`` naming
the parameter).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping

import numpy as np

from . import _validate as check
from .autodiff._io import real_vector, show_x
from .autodiff.forward import Dual
from .autodiff.functions import cos, sin
from .autodiff.reverse import Var

L1 = 1.0
L2 = 0.7
L_MAX = 1e3  # m; see the module docstring
_FLOATS = (float, np.float64)
X_MAX = 10**6  # entries of a sin_chain input: the pure-Python loop takes ~2 s there (measured)
LINKS_MAX = 200  # links of a planar arm, as problems.chains.MAX_LINKS: forward mode makes n passes
# rad: a joint angle beyond 160,000 turns is a unit mistake, and near it doubles are 1.2e-10 apart,
# so sin and cos keep few digits; it also keeps the angle sums theta_k finite (a huge q gave inf)
Q_MAX = 1e6


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


def _angle(name: str, v):
    """One joint angle: an entry as :func:`_entry`, with ``|angle| <= Q_MAX`` (the real part;
    a Dual's or Var's value)."""
    v = _entry(name, v)
    x = v
    while isinstance(x, (Dual, Var)):
        x = x.v
    if type(x) in _FLOATS:
        ok = -Q_MAX <= x <= Q_MAX
    else:
        ok = bool(np.all(np.abs(np.real(x)) <= Q_MAX))
    if not ok:
        got = show_x(np.real(x)) if isinstance(x, np.ndarray) else f"{x:g}"
        raise ValueError(f"{name} must be a joint angle with |{name}| <= {Q_MAX:g} rad, got {got}")
    return v


def _is_sequence(q) -> bool:
    """Indexable by position with a length: not a string, and not a mapping (``q[0]`` is a key)."""
    return (
        not isinstance(q, (str, bytes, Mapping))
        and hasattr(q, "__len__")
        and hasattr(q, "__getitem__")
    )


def _pair(q):
    if not _is_sequence(q):
        raise TypeError(f"q must be a sequence of 2 joint angles, got {type(q).__name__}")
    if len(q) != 2:
        raise ValueError(f"q must hold exactly 2 joint angles (q1, q2), got {len(q)}")
    q1, q2 = _angle("q[0]", q[0]), _angle("q[1]", q[1])
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
    Vars, each angle within ``Q_MAX`` rad (its real part, or value); returns a
    numpy array of shape (2,) of the same kind (object for Dual/Var).  ``l1``,
    ``l2`` are floats in ``(0, L_MAX]``.
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
    if not np.all(np.abs(qv) <= Q_MAX):
        raise ValueError(f"q must hold joint angles with |q_i| <= {Q_MAX:g} rad, got {show_x(qv)}")
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


def _angles(q) -> list:
    """``q`` as a list of 1 .. LINKS_MAX joint angles (finite floats, complex numbers, Duals, Vars)."""
    if isinstance(q, np.ndarray) and q.ndim != 1:
        raise ValueError(f"q must be a 1-D sequence of joint angles, got shape {q.shape}")
    if not _is_sequence(q):
        raise TypeError(f"q must be a sequence of joint angles, got {type(q).__name__}")
    if len(q) < 1:
        raise ValueError("q must hold at least 1 joint angle, got 0")
    check.count("len(q)", len(q), LINKS_MAX, "a planar arm here has at most that many links")
    out = []
    for i in range(len(q)):
        v = q[i]
        if isinstance(v, np.ndarray):
            raise TypeError(f"q[{i}] must be a number, Dual or Var, got an array")
        out.append(_angle(f"q[{i}]", v))
    return out


def _lengths(lengths, n: int) -> list[float]:
    """One link length per joint in ``(0, L_MAX]`` m; ``None``: ``1/n`` each (a 1 m reach)."""
    if lengths is None:
        return [1.0 / n] * n
    ls = real_vector("lengths", lengths, max_size=LINKS_MAX)
    if ls.size != n:
        raise ValueError(f"lengths must hold one length per joint angle ({n}), got {ls.size}")
    if not np.all((ls > 0.0) & (ls <= L_MAX)):
        raise ValueError(f"lengths must lie in (0, {L_MAX:g}] m, got {show_x(ls)}")
    return [float(v) for v in ls]


def planar_fk(q, lengths=None):
    """End-effector position of a planar arm with ``n = len(q)`` revolute joints::

        θ_k = q_1 + ... + q_k,   p(q) = Σ_k l_k (cos θ_k, sin θ_k)

    (Lynch & Park, *Modern Robotics*, 2017, sec. 4.1, planar open chains).
    ``q``: 1 .. ``LINKS_MAX`` finite floats, complex numbers, Duals or Vars within ``Q_MAX`` rad;
    ``lengths``: one per joint in ``(0, L_MAX]`` m, default ``1/n`` each (reach 1 m,
    so every Jacobian entry is at most 1).  Written once for every number type, so
    forward mode, reverse mode and the complex step differentiate this code;
    returns an array of shape (2,) (object for Dual/Var).
    """
    th = _angles(q)
    ls = _lengths(lengths, len(th))
    theta = th[0]
    x, y = ls[0] * cos(theta), ls[0] * sin(theta)
    for k in range(1, len(th)):
        theta = theta + th[k]
        x = x + ls[k] * cos(theta)
        y = y + ls[k] * sin(theta)
    return np.array([x, y])


def planar_jacobian(q, lengths=None) -> np.ndarray:
    """Analytic Jacobian ``∂p/∂q`` of :func:`planar_fk`, shape ``(2, n)``.

    Column ``j`` sums the links beyond joint ``j`` (each joint turns every link after it)::

        J[0, j] = -Σ_{k >= j} l_k sin θ_k,   J[1, j] = Σ_{k >= j} l_k cos θ_k

    accumulated from the tip inwards: ``(n - 1)`` angle sums, ``n`` sines, ``n`` cosines,
    ``2n`` products, ``2(n - 1)`` suffix sums and ``n`` negations, ``8n - 3`` operations:
    one evaluation of :func:`planar_fk` (``7n - 3``) plus the signs.  Written with the same
    primitives, so a :class:`~robonum.autodiff.Var` input records (and counts) it on a tape.
    Inputs as :func:`planar_fk`.
    """
    th = _angles(q)
    ls = _lengths(lengths, len(th))
    n = len(th)
    thetas = [th[0]]
    for k in range(1, n):
        thetas.append(thetas[-1] + th[k])
    sx, sy = ls[-1] * sin(thetas[-1]), ls[-1] * cos(thetas[-1])
    jx, jy = [-sx], [sy]
    for k in range(n - 2, -1, -1):
        sx = sx + ls[k] * sin(thetas[k])
        sy = sy + ls[k] * cos(thetas[k])
        jx.append(-sx)
        jy.append(sy)
    return np.array([jx[::-1], jy[::-1]])
