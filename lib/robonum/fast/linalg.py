"""LU with partial pivoting, compiled: the factor-once, solve-many pair a Newton loop needs.

numba's ``np.linalg.solve`` factors on every call; a simplified Newton
iteration solves with one matrix several times per step, so the factors are
kept (as LAPACK's ``getrf``/``getrs`` do, Golub & Van Loan, *Matrix
Computations*, alg. 3.4.1).  One source serves real and complex matrices:
numba compiles each dtype separately.  The loops are O(n^3) like LAPACK's
unblocked code, which is what the small systems of an ODE solver need.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=False)
def lu_factor(M):
    """``P M = L U`` in one array (``L`` unit lower, below the diagonal) and the pivots.

    Returns ``(LU, piv, ok)``; ``ok`` is False when a pivot is exactly zero
    (the matrix is singular and no solve is attempted).
    """
    n = M.shape[0]
    LU = M.copy()
    piv = np.empty(n, dtype=np.int64)
    for k in range(n):
        p, big = k, abs(LU[k, k])
        for i in range(k + 1, n):  # largest pivot: bounds the multipliers by 1
            if abs(LU[i, k]) > big:
                p, big = i, abs(LU[i, k])
        piv[k] = p
        if big == 0.0:
            return LU, piv, False
        if p != k:
            for j in range(n):
                LU[k, j], LU[p, j] = LU[p, j], LU[k, j]
        inv = 1.0 / LU[k, k]
        for i in range(k + 1, n):
            LU[i, k] *= inv
            m = LU[i, k]
            if m != 0.0:  # sparse Jacobians (HIRES) skip most rows
                for j in range(k + 1, n):
                    LU[i, j] -= m * LU[k, j]
    return LU, piv, True


@numba.njit(cache=False)
def lu_solve(LU, piv, b):
    """``x`` with ``M x = b`` from :func:`lu_factor`'s output (``b`` is not changed)."""
    n = LU.shape[0]
    x = b.astype(LU.dtype)  # a copy, complex when LU is
    for k in range(n):  # the row swaps, in the order they were made
        p = piv[k]
        if p != k:
            x[k], x[p] = x[p], x[k]
    for i in range(n):  # L y = P b (unit diagonal)
        acc = x[i]
        for j in range(i):
            acc -= LU[i, j] * x[j]
        x[i] = acc
    for i in range(n - 1, -1, -1):  # U x = y
        acc = x[i]
        for j in range(i + 1, n):
            acc -= LU[i, j] * x[j]
        x[i] = acc / LU[i, i]
    return x
