"""Symplectic splitting methods for ``H(q, p) = p·p/2 + V(q)`` as data.

Every method here is a sequence of *kicks* ``p <- p - tau ∇V(q)`` and
*drifts* ``q <- q + tau p``:

* symplectic Euler (order 1): kick ``h``, drift ``h``;
* Störmer-Verlet (order 2): kick ``h/2``, drift ``h``, kick ``h/2``;
* compositions of Verlet with sub-steps ``gamma_m h`` (Yoshida's triple jump,
  order 4: ``gamma = (g1, g0, g1)``, ``g1 = 1/(2 - 2^(1/3))``, ``g0 = 1 - 2 g1``).

Each kick and each drift is the exact flow of a Hamiltonian (``V`` alone,
``T`` alone), so every composition is a symplectic map.  On the harmonic
oscillator ``q'' = -omega^2 q`` a step is a 2x2 matrix ``M(h omega)`` with
``det M = 1``; the numerical orbit is bounded exactly while
``|tr M| < 2`` -- the method's stability interval in ``x = h omega``.

References: Hairer, Lubich & Wanner, *Geometric Numerical Integration*,
2nd ed., sec. I.1, II.4, II.5, VI.3; Yoshida, Phys. Lett. A 150 (1990) 262.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _scipy
from .. import _validate as check

_CBRT2 = 2.0 ** (1.0 / 3.0)
YOSHIDA4_GAMMAS = (1.0 / (2.0 - _CBRT2), -_CBRT2 / (2.0 - _CBRT2), 1.0 / (2.0 - _CBRT2))


class SplittingMethod:
    """A composition of kicks and drifts.

    Parameters
    ----------
    name : str
    order : int, the classical order.
    gammas : sequence of floats summing to 1, or None
        Verlet sub-step fractions; ``None`` means symplectic Euler
        (kick ``h``, then drift ``h``).
    """

    family = "splitting"
    is_explicit = True

    def __init__(self, name: str, order: int, gammas=None):
        if not isinstance(name, str) or not name:
            raise TypeError("name must be a non-empty string")
        self.name = name
        self.order = check.integer("order", order, 1, 10)
        if gammas is None:
            self.gammas = None
        else:
            g = check.real_array("gammas", gammas, ndim=1, max_size=20)
            if abs(g.sum() - 1.0) > 1e-13:
                raise ValueError(f"gammas must sum to 1 (consistency), got {g.sum()!r}")
            self.gammas = tuple(float(x) for x in g)

    @property
    def force_evaluations(self) -> int:
        """``∇V`` evaluations per step when the last force is reused by the next step."""
        return 1 if self.gammas is None else len(self.gammas)

    def is_symplectic(self) -> bool:
        """Always: kicks and drifts are exact flows of Hamiltonians (HLW sec. VI.3)."""
        return True

    def stability_matrix(self, x: float) -> np.ndarray:
        """One step on ``q'' = -omega^2 q`` in the variables ``(q, p/omega)``, ``x = h omega``.

        Kick by ``tau``: ``[[1, 0], [-tau omega, 1]]``; drift: ``[[1, tau omega], [0, 1]]``.
        """
        x = check.real("x", x, -1e6, 1e6)
        if self.gammas is None:
            return np.array([[1.0, x], [0.0, 1.0]]) @ np.array([[1.0, 0.0], [-x, 1.0]])
        M = np.eye(2)
        for g in self.gammas:
            tau = g * x
            kick = np.array([[1.0, 0.0], [-tau / 2, 1.0]])
            M = kick @ np.array([[1.0, tau], [0.0, 1.0]]) @ kick @ M
        return M

    def stability_interval(self) -> float:
        """Largest ``x*`` with ``|tr M(x)| <= 2`` on ``(0, x*]``: bounded orbits for ``h omega <= x*``.

        ``det M = 1``, so the eigenvalues lie on the unit circle exactly while
        ``|tr M| <= 2``.  Scanned on a grid, refined by Brent's method.
        Example: Verlet gives 2 (``tr M = 2 - x^2``).
        """

        def excess(x):
            return abs(np.trace(self.stability_matrix(x))) - 2.0

        grid = np.linspace(1e-3, 10.0, 10001)
        bad = [x for x in grid if excess(x) > 1e-12]
        if not bad:
            return math.inf
        hi = bad[0]
        lo = grid[max(int(np.searchsorted(grid, hi)) - 1, 0)]
        return (
            float(_scipy.optimize().brentq(excess, lo, hi, xtol=1e-14))
            if excess(lo) < 0
            else float(lo)
        )

    def __repr__(self):
        return f"SplittingMethod({self.name!r}, order={self.order}, force evaluations={self.force_evaluations})"


SYMPLECTIC_EULER = SplittingMethod("Symplectic Euler", 1)
VERLET = SplittingMethod("Störmer-Verlet", 2, (1.0,))
YOSHIDA4 = SplittingMethod("Yoshida 4", 4, YOSHIDA4_GAMMAS)

ALL = {"symplectic_euler": SYMPLECTIC_EULER, "verlet": VERLET, "yoshida4": YOSHIDA4}
