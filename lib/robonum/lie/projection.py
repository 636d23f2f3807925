"""Back onto SO(3): the nearest rotation (polar factor) and Gram-Schmidt on the columns.

A matrix that drifted off SO(3) (matrix Euler, RK4 on the 9 entries) can be
projected back after every step.  Both projections return an orthogonal matrix
to rounding, but they are different maps: the polar factor is the rotation
nearest in the Frobenius norm and treats the columns alike; Gram-Schmidt keeps
the first column's direction and so depends on the column order.
"""

from __future__ import annotations

import numpy as np

from . import so3


def gram_schmidt(M) -> np.ndarray:
    """Orthonormalise the columns of ``M`` in order (modified Gram-Schmidt).

    ``q1 = m1/|m1|``, ``q2 ∝ m2 - (q1·m2) q1``, ``q3 ∝ m3 - (q1·m3) q1 - (q2·m3) q2``.
    The first column keeps its direction, so the result depends on the
    column order -- unlike :func:`polar`.
    """
    return _gram_schmidt(so3._mat3("M", M, so3.MAX_MATRIX_ENTRY).copy())


def _gram_schmidt(Q):
    """In-place modified Gram-Schmidt on the columns of ``Q`` (no input checks)."""
    for j in range(3):
        for i in range(j):
            Q[:, j] -= (Q[:, i] @ Q[:, j]) * Q[:, i]
        norm = np.linalg.norm(Q[:, j])
        if not norm > 1e-12:
            raise ValueError("M must have linearly independent, finite columns for Gram-Schmidt")
        Q[:, j] /= norm
    return Q


def polar(M) -> np.ndarray:
    """The orthogonal polar factor ``U Vᵀ`` of ``M = U Σ Vᵀ``: the rotation nearest
    to ``M`` in the Frobenius norm (for ``det M > 0``; Higham, *Functions of
    Matrices*, sec. 8.1)."""
    M = so3._mat3("M", M, so3.MAX_MATRIX_ENTRY)
    if not np.linalg.det(M) > 0:
        raise ValueError(
            f"M must have det M > 0 to be near a rotation, got det M = {np.linalg.det(M):.3g}"
        )
    return _polar(M)


def _polar(M):
    U, _, Vt = np.linalg.svd(M)
    return U @ Vt


PROJECTIONS = {"polar": _polar, "gram_schmidt": _gram_schmidt}
