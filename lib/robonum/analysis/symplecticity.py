"""Symplecticity of Runge-Kutta methods from their coefficients.

A Runge-Kutta method is symplectic (its one-step map preserves the area
``dq ∧ dp`` of every Hamiltonian system) iff
``M = B A + Aᵀ B - b bᵀ = 0`` with ``B = diag(b)``.
Reference: Hairer, Lubich & Wanner, *Geometric Numerical Integration*,
2nd ed., thm. VI.4.3.
"""

from __future__ import annotations

import numpy as np

from .stability import require_tableau


def symplecticity_residual(tableau):
    """``max |b_i a_ij + b_j a_ji - b_i b_j|``: zero exactly for a symplectic RK method.

    A Runge-Kutta method is symplectic (its flow map preserves the area
    ``dq ∧ dp``) iff ``M = B A + Aᵀ B - b bᵀ = 0`` with ``B = diag(b``)
    (Hairer, Lubich & Wanner, *Geometric Numerical Integration*, thm. VI.4.3).
    Exact (a ``Fraction``) for rational tableaux, a float otherwise.
    Example: Gauss-Legendre methods give 0; RK4 gives 1/36.
    """
    tab = require_tableau(tableau)
    if tab.exact is not None:
        A, b = tab.exact["A"], tab.exact["b"]
    else:
        A, b = np.asarray(tab.A), np.asarray(tab.b)
    s = len(b)
    return max(
        abs(b[i] * A[i][j] + b[j] * A[j][i] - b[i] * b[j]) for i in range(s) for j in range(s)
    )


def is_symplectic(tableau) -> bool:
    """Symplectic: :func:`symplecticity_residual` is 0 (exactly, or below 1e-14 for floats)."""
    tab = require_tableau(tableau)
    r = symplecticity_residual(tab)
    return r == 0 if tab.exact is not None else bool(r <= 1e-14)
