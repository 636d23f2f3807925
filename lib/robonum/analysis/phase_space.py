"""Phase space of a one-degree-of-freedom Hamiltonian system: clouds of states, their areas.

A symplectic map of the plane keeps area: the image of any region ``D`` of
initial states ``(q0, p0)`` has the area of ``D``, because the Jacobian
``∂(q, p)/∂(q0, p0)`` of the map has determinant 1 everywhere (Hairer,
Lubich & Wanner, *Geometric Numerical Integration*, 2nd ed., sec. VI.2).
To *measure* that for any method, :func:`ensemble` builds one
:class:`~robonum.HamiltonianProblem` that carries ``N`` copies of
``q'' = -V'(q)`` together with each copy's tangent map: two perturbations
``(δq, δp)``, started at ``(1, 0)`` and ``(0, 1)``, obeying the linearised
equations ``δq' = δp``, ``δp' = -V''(q) δq``.  Any method -- Runge-Kutta or
splitting -- applied to this system computes, for every copy, exactly the
derivative of *its own* numerical map (the linearisation of a Runge-Kutta
step is the same Runge-Kutta step applied to the linearised equations, HLW
sec. VI.4, used in the proof of thm. VI.4.3; a kick or a drift is linear in
``(δq, δp)``; checked against finite differences in the tests).  Then
:func:`area_factors` is ``det ∂(q_n, p_n)/∂(q0, p0)`` per copy, and over an
equal-area sample of a region (:func:`disc_points`) its mean is the area of
the carried region divided by the area of the region (:func:`area_ratio`).
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from ..problem import HamiltonianProblem
from ..solution import Solution

MAX_POINTS = 20_000  # 3·N unknowns per half of the state: 60 000 < the state cap of 100 000
GOLDEN_ANGLE = np.pi * (3.0 - np.sqrt(5.0))


def _centre_radius(center, radius):
    c = check.real_array("center", center, ndim=1)
    if c.size != 2:
        raise ValueError(f"center must be a pair (q, p), got {c.size} values")
    r = check.positive("radius", radius, hi=1e6)
    return c, r


def disc_points(center, radius: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` points spread evenly over the disc ``|(q, p) - center| <= radius`` (Vogel's spiral).

    Point ``k`` sits at radius ``r sqrt((k + 1/2)/n)`` and angle ``k`` times the
    golden angle ``π(3 - √5)``, so each point stands for the same area
    ``π r²/n`` (Vogel, Math. Biosci. 44 (1979) 179).  ``n`` in [1, 20 000].
    Returns ``(q, p)``, two arrays of shape ``(n,)``.
    """
    c, r = _centre_radius(center, radius)
    n = check.integer("n", n, 1, MAX_POINTS)
    k = np.arange(n)
    rho, phi = r * np.sqrt((k + 0.5) / n), k * GOLDEN_ANGLE
    return c[0] + rho * np.cos(phi), c[1] + rho * np.sin(phi)


def circle_points(center, radius: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` points on the circle of ``radius`` around ``center``, counterclockwise in the ``(q, p)`` plane.

    ``n`` in [3, 20 000].  The polygon through them has area
    ``(n/2) r² sin(2π/n)`` (:func:`polygon_area`).
    """
    c, r = _centre_radius(center, radius)
    n = check.integer("n", n, 3, MAX_POINTS)
    phi = 2.0 * np.pi * np.arange(n) / n
    return c[0] + r * np.cos(phi), c[1] + r * np.sin(phi)


def polygon_area(q, p) -> float:
    """Signed area of the closed polygon through ``(q_k, p_k)`` (shoelace formula).

    ``A = ½ Σ_k (q_k p_{k+1} - q_{k+1} p_k)`` with ``k + 1`` taken mod ``n``;
    positive for counterclockwise vertices.  Exact for a polygon, so a linear
    map ``M`` multiplies it by ``det M`` up to round-off.
    """
    q = check.real_array("q", q, ndim=1, min_size=3, max_size=10 * MAX_POINTS)
    p = check.real_array("p", p, ndim=1, min_size=3, max_size=10 * MAX_POINTS)
    if q.shape != p.shape:
        raise ValueError(f"q and p must have the same length, got {q.size} and {p.size}")
    return float(0.5 * np.sum(q * np.roll(p, -1) - np.roll(q, -1) * p))


def _elementwise(name, fn, q):
    check.callable_(name, fn)
    try:
        with np.errstate(all="ignore"):
            raw = np.asarray(fn(q))
    except Exception as exc:  # the user's function: say which one failed
        raise ValueError(f"{name}(q0) raised {type(exc).__name__}: {exc}"[:300]) from exc
    if np.iscomplexobj(raw) or raw.dtype.kind not in "iuf":
        raise TypeError(f"{name} must return real numbers, got dtype {raw.dtype}")
    out = raw.astype(float)
    if out.shape != q.shape:
        raise ValueError(
            f"{name} must act elementwise (an array of shape {q.shape} in, the same "
            f"shape out), got shape {out.shape}"
        )
    if not np.all(np.isfinite(out)):
        raise ValueError(f"{name} gave a non-finite value at the initial states")
    return out


def ensemble(dV, d2V, q0, p0, t_span, *, name: str = "ensemble") -> HamiltonianProblem:
    """``N`` copies of ``q'' = -V'(q)``, each with its tangent map, as one ``HamiltonianProblem``.

    Parameters
    ----------
    dV, d2V : callables acting elementwise on an array of positions, giving
        ``V'(q)`` and ``V''(q)`` (for the pendulum ``np.sin`` and ``np.cos``).
    q0, p0 : arrays of the ``N`` initial states, ``N`` in [1, 20 000].
    t_span : ``(t0, t1)``.

    The state is ``Q = (q, a_q, b_q)``, ``P = (p, a_p, b_p)`` (each block of
    length ``N``); ``(a_q, a_p)`` starts at ``(1, 0)``, ``(b_q, b_p)`` at
    ``(0, 1)``, and the "force" is ``(V'(q), V''(q) a_q, V''(q) b_q)``.  So
    ``[[a_q, b_q], [a_p, b_p]]`` is the Jacobian of the flow -- or, run with
    a method, of that method's map -- from ``(q0, p0)``.  Read the results
    with :func:`ensemble_states` and :func:`area_factors`.  The tangent part
    has no potential, so the problem has no ``energy``.
    Example: ``ensemble(np.sin, np.cos, *disc_points((1, 0), 0.3, 200), (0, 10))``.
    """
    q0 = check.real_array("q0", q0, ndim=1, max_size=MAX_POINTS)
    p0 = check.real_array("p0", p0, ndim=1, max_size=MAX_POINTS)
    if q0.shape != p0.shape:
        raise ValueError(f"q0 and p0 must have the same length, got {q0.size} and {p0.size}")
    _elementwise("dV", dV, q0)
    _elementwise("d2V", d2V, q0)
    check.text("name", name)
    n = q0.size
    one, zero = np.ones(n), np.zeros(n)

    def force(Q):
        q = Q[:n]
        c = d2V(q)
        return np.concatenate([dV(q), c * Q[n : 2 * n], c * Q[2 * n :]])

    return HamiltonianProblem(
        force,
        np.concatenate([q0, one, zero]),
        np.concatenate([p0, zero, one]),
        t_span,
        name=name,
        params={"points": n},
    )


def _blocks(sol: Solution):
    if not isinstance(sol, Solution):
        raise TypeError(f"sol must be a robonum.Solution, got {type(sol).__name__}")
    if sol.layout != "hamiltonian" or sol.y.shape[0] % 6:
        raise ValueError(
            "sol must come from integrating an ensemble(...) problem "
            f"(a state of 6·N rows), got {sol.y.shape[0]} rows"
        )
    n = sol.y.shape[0] // 6
    Q, P = sol.y[: 3 * n], sol.y[3 * n :]
    return n, Q, P


def ensemble_states(sol: Solution) -> tuple[np.ndarray, np.ndarray]:
    """``(q, p)`` of every copy at every saved time: two arrays of shape ``(N, len(sol.t))``."""
    n, Q, P = _blocks(sol)
    return Q[:n], P[:n]


def area_factors(sol: Solution) -> np.ndarray:
    """``det ∂(q, p)/∂(q0, p0) = a_q b_p - b_q a_p`` per copy and saved time, shape ``(N, len(sol.t))``.

    1 at every point for a symplectic map (up to round-off), ``> 1`` where the
    map spreads area, ``< 1`` where it shrinks it.
    """
    n, Q, P = _blocks(sol)
    return Q[n : 2 * n] * P[2 * n :] - Q[2 * n :] * P[n : 2 * n]


def area_ratio(sol: Solution) -> np.ndarray:
    """Mean of :func:`area_factors` over the copies: for an equal-area sample of a region
    (:func:`disc_points`), the area of the carried region over its initial area, per saved time.

    The mean is the midpoint rule for ``(1/|D|) ∫_D det J dA``; for a symplectic
    method every term is 1 and so is the mean, whatever the sample.
    """
    return area_factors(sol).mean(axis=0)
