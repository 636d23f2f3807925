"""Energy along a trajectory, and how its error grows.

For a conservative system the exact flow keeps ``H`` constant, so
``|H(t) - H(t0)|`` measures the integrator alone.  A symplectic method keeps
it bounded (it oscillates); a non-symplectic one lets it drift, for RK4
roughly linearly in ``t`` (Hairer, Lubich & Wanner, *Geometric Numerical
Integration*, sec. I.1 and ch. IX).  The helpers below give the error
curve, its running maximum and the growth exponent ``α`` in ``err ~ t^α``.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check

MAX_STATE = 1e100  # as problems.harmonic_energy: p·p/2 stays finite


def separable_energy(V, q, p) -> np.ndarray:
    """``H = p·p/2 + V(q)`` at every column of ``q`` and ``p`` (shape ``(d, m)``).

    ``V`` is called once with the whole ``(d, m)`` array and must return
    shape ``(m,)`` (write it with numpy operations, e.g.
    ``V = lambda q: -np.cos(q[0])``).  Finite entries must satisfy ``|q|, |p| <= 1e100``
    (so ``p·p`` is finite); a column with a NaN/inf entry (a diverged run) has energy ``inf``.
    """
    check.callable_("V", V, 1, "V(q)")
    q, p = (np.atleast_2d(check.real_array(n, x, finite=False)) for n, x in (("q", q), ("p", p)))
    for name, x in (("q", q), ("p", p)):
        if (np.abs(x[np.isfinite(x)]) > MAX_STATE).any():
            raise ValueError(f"{name} must have finite entries with |x| <= {MAX_STATE:g}")
    if q.shape != p.shape:
        raise ValueError(f"q and p must have the same shape, got {q.shape} and {p.shape}")
    finite = np.isfinite(q).all(axis=0) & np.isfinite(p).all(axis=0)
    with np.errstate(invalid="ignore", over="ignore"):
        v = check.real_array("V(q)", V(q), finite=False, min_size=0)
    if v.shape != (q.shape[1],):
        raise ValueError(
            f"V(q) for q of shape {q.shape} must return shape ({q.shape[1]},) "
            f"(one value per column), got {v.shape}"
        )
    if not np.isfinite(v[finite]).all():
        raise ValueError("V returned NaN or inf at a finite q")
    # a state that is no longer finite (a diverged run's last point) has energy inf, not NaN
    with np.errstate(invalid="ignore", over="ignore"):
        return np.where(finite, 0.5 * np.sum(p * p, axis=0) + v, np.inf)


def energy_error(E, E0: float | None = None, *, relative: bool = False) -> np.ndarray:
    """``|E - E0|`` (``E0 = E[0]`` by default), or ``|E - E0| / |E0|`` if ``relative``."""
    E = check.real_array("E", E, ndim=1, max_size=100_000_000)
    E0 = float(E[0]) if E0 is None else check.real("E0", E0)
    relative = check.boolean("relative", relative)
    err = np.abs(E - E0)
    if relative:
        if E0 == 0.0:
            raise ValueError("relative energy error needs E0 != 0; use relative=False")
        err = err / abs(E0)
    return err


def _check_curve(t, err):
    t = check.real_array("t", t, ndim=1, max_size=100_000_000)
    err = check.real_array("err", err, ndim=1, max_size=100_000_000)
    if t.shape != err.shape or t.size == 0:
        raise ValueError(
            f"t and err must be non-empty and of equal length, got {t.size} and {err.size}"
        )
    if np.any(np.diff(t) <= 0):
        raise ValueError("t must be strictly increasing")
    if np.any(err < 0):  # a size: a signed H - H0 would make the running maximum meaningless
        raise ValueError(f"err must be >= 0 (an error size, e.g. |H - H0|), got min {err.min():g}")
    return t, err


def max_error_up_to(t, err, T) -> np.ndarray:
    """``max_{t0 <= t_k <= T} err_k`` for each ``T`` (a scalar or array)."""
    t, err = _check_curve(t, err)
    T = check.real_array("T", T, ndim=1)
    if np.any(T < t[0]):
        raise ValueError(f"T must be >= t[0] = {t[0]:g}")
    running = np.maximum.accumulate(err)
    # index of the last sample with t_k <= T (small slack for rounding in t0 + k*h)
    with np.errstate(over="ignore"):  # T near the largest double: inf is past every t, as meant
        idx = np.searchsorted(t, T * (1 + 1e-12) + 1e-12, side="right") - 1
    return running[idx]


def max_error_in_windows(t, err, n_windows: int) -> tuple[np.ndarray, np.ndarray]:
    """Split ``[t0, t_end]`` into ``n_windows`` equal windows; return (window ends, max err in each).

    A bounded error gives a flat profile, a drifting one a rising profile.
    """
    t, err = _check_curve(t, err)
    n_windows = check.integer("n_windows", n_windows, 1, t.size)
    edges = np.linspace(t[0], t[-1], n_windows + 1)
    # windows [t0, e1], (e1, e2], ...: a sample on an edge closes the earlier window
    which = np.clip(np.searchsorted(edges, t, side="left") - 1, 0, n_windows - 1)
    peak = np.full(n_windows, np.nan)
    np.fmax.at(peak, which, err)
    return edges[1:], peak


def growth_exponent(t, err, T_a: float, T_b: float) -> float:
    """``α = log(m(T_b)/m(T_a)) / log(T_b/T_a)`` with ``m(T) = max_{t<=T} err``.

    ``α ≈ 1`` is linear drift (RK4 on a periodic orbit), ``α ≈ 0`` bounded
    error (a symplectic method).
    """
    T_a, T_b = check.positive("T_a", T_a), check.positive("T_b", T_b)
    if not T_b > T_a:
        raise ValueError(f"need T_a < T_b, got {T_a} and {T_b}")
    t, err = _check_curve(t, err)
    t0 = float(t[0])
    if T_a < t0:
        raise ValueError(f"T_a must be >= t[0] = {t0:g}, got {T_a:g}")
    m_a, m_b = max_error_up_to(t, err, [T_a, T_b])
    if m_a <= 0:
        raise ValueError(f"the error is 0 up to T_a = {T_a}; choose a later T_a")
    return float(np.log(m_b / m_a) / np.log(T_b / T_a))


def max_error_in_log_windows(t, err, n_windows: int = 100, t_min: float | None = None):
    """The envelope of an error curve for a log-log plot: ``max err`` over log-spaced windows of ``t``.

    Windows ``(t_min r^(k-1), t_min r^k]``, ``k = 1..n_windows``, with ``r`` chosen so
    the last window ends at ``t[-1]``; ``t_min`` defaults to the first positive
    ``t``.  Windows holding no sample are left out.  Returns ``(window ends, max
    err)``.  ``n_windows`` in [1, 10 000].  Plotting this instead of 10^6 points
    keeps the figure honest (every peak is kept) and light.
    """
    t, err = _check_curve(t, err)
    n_windows = check.integer("n_windows", n_windows, 1, 10_000)
    positive = t[t > 0]
    if positive.size == 0:
        raise ValueError("t must contain a positive time")
    t_min = float(positive[0]) if t_min is None else check.positive("t_min", t_min)
    if not t_min < t[-1]:
        raise ValueError(f"t_min must be < t[-1] = {t[-1]:g}, got {t_min:g}")
    edges = np.geomspace(t_min, t[-1], n_windows + 1)
    edges[-1] = t[-1]
    # t is sorted: window k holds the contiguous samples edges[k] < t <= edges[k+1] (the first
    # also t_min itself), so window k ends where window k+1 starts and the last one at t[-1]
    starts = np.searchsorted(t, edges[:-1], side="right")
    starts[0] = np.searchsorted(t, t_min, side="left")
    stops = np.append(starts[1:], t.size)
    keep = stops > starts
    return edges[1:][keep], np.maximum.reduceat(err, starts[keep])
