"""Dense output: the solution between the steps an adaptive run accepted.

Every accepted step leaves a polynomial on ``[t_n, t_{n+1}]`` that its method
provides for free:

* Radau IIA: the collocation polynomial through ``y_n`` and the three stage
  values, ``u(t_n + s h) = y_n + sum_{k=1}^{3} s^k Q_k`` (order 3 uniformly,
  exact at the nodes; Hairer & Wanner II, sec. IV.8);
* explicit pairs with a continuous extension in their tableau (DOPRI5, order 4):
  ``y_n + h sum_i b_i(s) k_i``, the same power form with ``Q_k = h sum_i dense[i, k-1] k_i``
  (Hairer, Norsett & Wanner I, sec. II.6);
* BDF: the interpolation polynomial through the last ``k + 1`` values in
  backward-difference (Newton) form,
  ``p(t_{n+1} + s h) = sum_{j=0}^{k} nabla^j y_{n+1} prod_{m=0}^{j-1} (s + m)/(m + 1)``,
  ``s in [-1, 0]`` (Shampine & Reichelt 1997);
* other explicit steppers: the cubic Hermite polynomial through ``y`` and ``f`` at
  both ends (third order).

:class:`DenseOutput` strings the pieces together; ``sol(t)`` returns
``(n,)`` for a scalar ``t`` and ``(n, m)`` for ``m`` times, like SciPy's
``OdeSolution``.  Outside the integrated interval ``sol(t)`` extends the first or
the last piece, as SciPy's ``OdeSolution`` does (code written for SciPy reads a few
times past the end, e.g. after a terminal event); no error control stands behind
those values.
"""

from __future__ import annotations

import numpy as np

from . import _validate as check

MAX_EVAL = 10**6


class PowerPiece:
    """``y_a + sum_{k>=1} s^k Q_k`` with ``s = (t - t_a) / h`` (``Q`` has shape (p, n))."""

    def __init__(self, t_a, h, y_a, Q):
        self.t_a, self.h, self.y_a, self.Q = t_a, h, y_a, Q

    def __call__(self, t):
        s = (t - self.t_a) / self.h
        S = np.vander(s, self.Q.shape[0] + 1, increasing=True)[:, 1:]
        return (self.y_a + S @ self.Q).T


class BackwardDifferencePiece:
    """Newton form through ``y_{n+1}, y_n, ...``: ``D[j]`` are the backward differences at ``t_new``."""

    def __init__(self, t_new, h, D):
        self.t_new, self.h, self.D = t_new, h, D

    def __call__(self, t):
        s = (t - self.t_new) / self.h
        out = np.tile(self.D[0][:, None], (1, s.size))
        w = np.ones_like(s)
        for j in range(1, self.D.shape[0]):
            w = w * (s + j - 1) / j
            out += self.D[j][:, None] * w
        return out


class HermitePiece:
    """Cubic Hermite interpolation through ``(y0, f0)`` at ``t0`` and ``(y1, f1)`` at ``t0 + h``."""

    def __init__(self, t0, h, y0, y1, f0, f1):
        self.t0, self.h = t0, h
        self.y0, self.y1, self.f0, self.f1 = y0, y1, f0, f1

    def __call__(self, t):
        s = (t - self.t0) / self.h
        h00, h10 = (1 + 2 * s) * (1 - s) ** 2, s * (1 - s) ** 2
        h01, h11 = s * s * (3 - 2 * s), s * s * (s - 1)
        return (
            np.outer(self.y0, h00)
            + np.outer(self.h * self.f0, h10)
            + np.outer(self.y1, h01)
            + np.outer(self.h * self.f1, h11)
        )


def evaluated(values_at, t, lo: float, hi: float) -> np.ndarray:
    """``values_at(tt)`` at the checked times ``t``: ``(n,)`` for a scalar ``t``, else ``(n, m)``.

    The dense outputs of ``solve_ivp`` (either direction) and ``IVPSolver`` read their times
    here.  Outside ``[lo, hi]`` the step polynomials extrapolate, as SciPy's do, as far as
    asked; far enough out (``t = 1e300``) a polynomial overflows, and a ``ValueError`` naming
    ``t`` says so instead of NaN and its warnings.
    """
    tt = check.real_array("t", t, ndim=1, max_size=MAX_EVAL)
    with np.errstate(over="ignore", invalid="ignore"):  # checked next
        out = values_at(tt)
    if np.isfinite(out).all():
        return out[:, 0] if np.ndim(t) == 0 else out
    raise ValueError(
        f"t is too far from the solution's interval [{lo:g}, {hi:g}] to extrapolate: the "
        f"step polynomials overflow there (t in [{tt.min():g}, {tt.max():g}])"
    )


class DenseOutput:
    """The piecewise polynomial of an adaptive run: ``sol(t)``.

    ``ts`` are the accepted step points ``t_0 < t_1 < ... < t_N``, ``pieces``
    the ``N`` polynomials between them.
    """

    def __init__(self, ts, pieces):
        self.ts = np.asarray(ts, dtype=float)
        self.pieces = list(pieces)
        if len(self.pieces) != max(0, self.ts.size - 1):
            raise ValueError("need one piece per step")
        self.t_min, self.t_max = float(self.ts[0]), float(self.ts[-1])

    def __call__(self, t):
        if not self.pieces:
            tt = check.real_array("t", t, ndim=1, max_size=MAX_EVAL)
            return np.zeros(0) if np.ndim(t) == 0 else np.zeros((0, tt.size))
        return evaluated(self.at_times, t, self.t_min, self.t_max)

    def at_times(self, tt: np.ndarray) -> np.ndarray:
        """The values at checked times ``tt`` (1-D), shape ``(n, len(tt))``, unchecked for overflow."""
        # Times before the first or after the last step fall into the end pieces.
        idx = np.clip(np.searchsorted(self.ts, tt, side="left") - 1, 0, len(self.pieces) - 1)
        first = self.pieces[0](np.array([self.ts[0]]))
        out = np.empty((first.shape[0], tt.size), dtype=first.dtype)  # complex states too
        for i in np.unique(idx):
            sel = idx == i
            out[:, sel] = self.pieces[i](tt[sel])
        return out

    def __repr__(self):
        return f"DenseOutput({len(self.pieces)} pieces on [{self.t_min:g}, {self.t_max:g}])"
