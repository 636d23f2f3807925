"""The modified Hamiltonian of a symplectic splitting method: why it keeps the energy.

Backward error analysis: a splitting method with a fixed step ``h`` is, to
high order, the exact flow of a *modified* Hamiltonian ``H̃ = H + h H_1 + h² H_2 + ...``,
which it therefore keeps almost exactly; ``H`` itself then only oscillates
by ``O(h^p)``.  For ``H = p·p/2 + V(q)`` (Hairer, Lubich & Wanner,
*Geometric Numerical Integration*, 2nd ed., sec. IX.3-IX.4, from the BCH formula):

- symplectic Euler (kick ``h``, then drift ``h``): ``H̃ = H - (h/2) p·∇V(q) + O(h²)``;
- Störmer-Verlet (kick-drift-kick):
  ``H̃ = H + h² (pᵀ∇²V(q) p / 12 - |∇V(q)|² / 24) + O(h⁴)``.

Steps of varying size (``rn.integrate(problem, method, rule)``) break this:
the steps no longer share one modified Hamiltonian, and a size read from the
state makes the step map non-symplectic (HLW sec. VIII.1).
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from ..problem import HamiltonianProblem
from .energy import MAX_STATE

MAX_COLUMNS = 200_000  # modified_energy calls ∇V and ∇²V once per column
MODIFIED = ("verlet", "symplectic_euler")


def modified_energy(problem: HamiltonianProblem, y, h: float, method: str = "verlet") -> np.ndarray:
    """The modified Hamiltonian ``H̃`` of ``method`` with step ``h`` at each column of ``y``.

    ``method``: ``"verlet"`` (``H̃ = H + h²(pᵀ∇²V p/12 - |∇V|²/24)``, needs the
    problem's ``hess_V``) or ``"symplectic_euler"`` (``H̃ = H - (h/2) p·∇V``).
    ``y`` of shape ``(2d,)`` or ``(2d, m)``, ``m <= 200 000``, entries ``|y| <= 1e100``.  Along a run
    with that step, ``H̃`` varies by ``O(h⁴)`` (Verlet) or ``O(h²)``
    (symplectic Euler) where ``H`` varies by ``O(h²)`` or ``O(h)``.
    Example (harmonic oscillator, Verlet): ``H̃ = H(1 + h²ω²/6) - h²ω⁴q²/8``.
    Reference: HLW sec. IX.3-IX.4.
    """
    if not isinstance(problem, HamiltonianProblem):
        raise TypeError(f"problem must be a HamiltonianProblem, got {type(problem).__name__}")
    h = check.positive("h", h, hi=1e6)
    check.one_of("method", method, MODIFIED)
    if method == "verlet" and problem.hess_V is None:
        raise ValueError(
            f"{problem.name}: the Verlet modified energy needs hess_V (pass it to the problem)"
        )
    # |y| <= 1e100, as separable_energy: p·p and p^T (∇²V) p of larger entries overflow to inf - inf
    y = check.real_array("y", y, max_size=2 * problem.d * MAX_COLUMNS, abs_max=MAX_STATE)
    cols = y.reshape(y.shape[0], -1) if y.ndim == 2 else y.reshape(-1, 1)
    if cols.shape[0] != 2 * problem.d:
        raise ValueError(
            f"y must have shape ({2 * problem.d},) or ({2 * problem.d}, m), got {y.shape}"
        )
    d = problem.d
    H = np.asarray(problem.energy(cols), dtype=float)
    extra = np.empty(cols.shape[1])
    for k in range(cols.shape[1]):
        q, p = cols[:d, k], cols[d:, k]
        g = np.reshape(np.asarray(problem.grad_V(q), dtype=float), d)
        if method == "verlet":
            hess = np.reshape(np.asarray(problem.hess_V(q), dtype=float), (d, d))
            extra[k] = h * h * (p @ hess @ p / 12.0 - g @ g / 24.0)
        else:
            extra[k] = -0.5 * h * (p @ g)
    out = H + extra
    if not np.all(np.isfinite(out)):
        raise ValueError(
            "the modified energy at y is not finite: grad_V or hess_V is too large for a double "
            f"at column(s) {np.flatnonzero(~np.isfinite(out))[:5].tolist()} of y"
        )
    return out if y.ndim == 2 else float(out[0])
