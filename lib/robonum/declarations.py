"""What an :class:`~robonum.problem.ODEProblem` may declare besides ``f``, validated.

``jac_sparsity``: where ``df/dy`` may be nonzero, turned into the column groups
of :mod:`robonum.jacobian`; ``nonnegative``: the components the exact solution
keeps ``>= 0``, which an adaptive run checks (:mod:`robonum.loop`).
"""

from __future__ import annotations

import numpy as np

from . import _validate as check
from . import jacobian

MAX_SPARSITY_DIM = 10_000  # jac_sparsity: the solvers factor a dense (n, n) matrix (800 MB here)


def sparsity(pattern, n: int):
    """``(pattern as a read-only bool array, column groups)``, or ``(None, None)``."""
    if pattern is None:
        return None, None
    if n > MAX_SPARSITY_DIM:
        raise ValueError(f"jac_sparsity is for n <= {MAX_SPARSITY_DIM}, got n = {n}")
    dense = np.asarray(pattern.toarray() if hasattr(pattern, "toarray") else pattern)
    if dense.dtype == bool:  # a mask is the natural way to say it
        dense = dense.astype(float)
    S = check.real_array("jac_sparsity", dense, ndim=2)
    if S.shape != (n, n):
        raise ValueError(f"jac_sparsity must have shape ({n}, {n}), got {S.shape}")
    S = S != 0
    S.setflags(write=False)
    return S, jacobian.group_columns(S)


def components(name: str, which, n: int):
    """``True`` (every component) or a sequence of distinct indices, as a sorted index array."""
    if which is None or which is False:
        return None
    if which is True:
        return np.arange(n)
    idx = check.real_array(name, which, ndim=1, max_size=n)  # distinct indices: at most n
    if np.any(idx != np.round(idx)) or np.any(idx < 0) or np.any(idx >= n):
        raise ValueError(f"{name} must be True or indices in [0, {n - 1}], got {which!r}")
    idx = np.unique(idx.astype(np.int64))
    idx.setflags(write=False)
    return idx
