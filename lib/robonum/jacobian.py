"""Finite-difference Jacobians for the implicit solvers: the increment rule and column groups.

Forward differences ``J[:, j] ≈ (f(y + δ_j e_j) - f(y)) / δ_j`` err by
truncation ``O(δ_j)`` and by rounding ``O(eps |f| / δ_j)``.  What a stiff
solver needs is the iteration matrix ``I - h γ J`` right in *its* norm, the
error weights ``w_i = atol_i + rtol |y_i|``; the increment is therefore
scaled to each component and to the tolerance (CVODE's rule, Hindmarsh et
al., ACM TOMS 31 (2005), sec. 4; SUNDIALS ``cvLsDenseDQJac``)::

    δ_j = max( sqrt(eps) |y_j|,  δ_min w_j ),
    δ_min = 1000 |hγ| eps n ||f||_w     (1 when ||f||_w = 0),

``||f||_w = rms(f / w)``, ``hγ`` the coefficient of ``J`` in the iteration
matrix ``I - hγ J`` (CVODE takes ``h``).  The first term keeps the relative
truncation error near ``sqrt(eps)``; the second keeps the rounding error of
column ``j``, multiplied by ``hγ`` and measured in the weights, near ``1e-3 / n``.  The rule
``sqrt(eps) max(1, |y_j|)`` (no tolerance known) perturbs a component of size
``1e-13`` by ``1.5e-8``: ROBER's ``∂f_3/∂y_2`` came out 0.447 where it is
``5e-5`` and simplified Newton stalled (issue 24).  SciPy's ``num_jac``
instead adapts a factor per column from call to call; CVODE's rule needs no
memory and is the same in the Python and the compiled loop, which both use
:func:`increments`.

Column groups (Curtis, Powell & Reid, IMA J. Appl. Math. 13 (1974)): columns
with no row in common can be perturbed together, one ``f``-call per group;
:func:`group_columns` is the greedy grouping in column order, so a banded
Jacobian of half-width ``m`` costs ``2m + 1`` calls whatever ``n`` is.
"""

from __future__ import annotations

import math

import numpy as np

EPS = float(np.finfo(float).eps)
SQRT_EPS = math.sqrt(EPS)
MIN_INC_MULT = 1000.0  # CVODE's MIN_INC_MULT


def increments(y, fy, w, hgamma):
    """The difference steps ``δ_j`` for ``y``, ``f(y)``, error weights ``w > 0`` and ``hγ``.

    ``δ_j = max(sqrt(eps)|y_j|, δ_min w_j)``, ``δ_min = 1000 |hγ| eps n rms(f/w)``
    (1 if that rms is 0).  Plain array arithmetic: ``robonum.fast`` compiles
    this same function.
    """
    n = y.size
    fw = np.abs(fy) / w  # abs: a complex state too; for real f it is the same number
    fnorm = math.sqrt(np.sum(fw * fw) / n)
    min_inc = MIN_INC_MULT * abs(hgamma) * EPS * n * fnorm if fnorm > 0.0 else 1.0
    return np.maximum(SQRT_EPS * np.abs(y), min_inc * w)


def group_columns(sparsity) -> np.ndarray:
    """Group index of each column: no two columns of a group share a nonzero row.

    ``sparsity`` is an ``(n, n)`` array (or SciPy sparse matrix) whose nonzeros
    mark where ``df_i/dy_j`` may be nonzero.  Greedy in column order (CPR):
    column ``j`` joins the first group none of whose rows it touches.
    Example: a tridiagonal pattern gives groups ``0, 1, 2, 0, 1, 2, ...``.
    """
    S = np.asarray(sparsity.toarray() if hasattr(sparsity, "toarray") else sparsity) != 0
    n = S.shape[1]
    # each column's rows as one Python int (bit i = row i): a test against a group is one
    # big-integer AND, n/64 machine words, so a dense pattern of 5000 columns (5000 groups,
    # 1.25e7 tests) takes about a second where boolean arrays took minutes
    packed = np.packbits(S, axis=0, bitorder="little")
    cols = [int.from_bytes(packed[:, j].tobytes(), "little") for j in range(n)]
    groups = np.empty(n, dtype=np.int64)
    rows_of: list[int] = []  # rows touched by each group so far
    for j, col in enumerate(cols):
        for g, rows in enumerate(rows_of):
            if not rows & col:
                rows_of[g] = rows | col
                groups[j] = g
                break
        else:
            groups[j] = len(rows_of)
            rows_of.append(col)
    return groups
