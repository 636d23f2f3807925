"""What an :class:`~robonum.problem.ODEProblem` may declare besides ``f``, validated.

``jac_sparsity``: where ``df/dy`` may be nonzero, turned into the column groups
of :mod:`robonum.jacobian`; ``nonnegative``: the components the exact solution
keeps ``>= 0``, which an adaptive run checks (:mod:`robonum.loop`).  Also
:func:`returned_array`, the first reading of what a user's function returned.
"""

from __future__ import annotations

import numpy as np

from . import _validate as check
from . import jacobian

# jac_sparsity: the difference Jacobian is held as a dense (n, n) array (200 MB here, as is
# I - h*gamma*J; SuperLU factors the latter), and work.MAX_JAC_DENSE is the cap without it
MAX_SPARSITY_DIM = 5_000


def returned_array(name: str, out, expected: str, t: float) -> np.ndarray:
    """``out``, what the user's function ``name`` returned at ``t``, as an array.

    A ragged sequence is refused by name: numpy's own error ("inhomogeneous shape")
    names neither the function nor what it should return.
    """
    try:
        return np.asarray(out)
    except ValueError:
        raise ValueError(
            f"{name} must return {expected}, got a ragged sequence at t = {t:g}"
        ) from None


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


# a jac whose J v misses every difference of f by this share of its size is wrong
JAC_MISMATCH = 0.25


def check_jacobian(f, J, t0: float, y0: np.ndarray, f0: np.ndarray, t1: float) -> None:
    """Refuse a ``jac`` that disagrees with ``f`` at ``(t0, y0)``: two more calls of ``f``.

    Along ``v_j = ±sqrt(eps) max(1, |y_j|)`` (signs from a fixed seed, so no column
    cancels another by design) the central difference ``(f(y0 + v) - f(y0 - v)) / 2``
    equals ``J v`` up to ``O(|v|^3)`` and rounding; where ``f`` has a kink at ``y0``
    (a contact starting at touchdown) ``J`` is one-sided, so the forward and the
    backward difference (``f0 = f(t0, y0)``) are accepted as well.  ``jac`` is refused
    when every one of them misses ``J v`` by more than
    ``JAC_MISMATCH max(||J v||_inf, ||difference||_inf) + 1e-3 ||v||_inf / (t1 - t0)``:
    the last term is a rate a thousand times too slow to matter over the whole
    interval, so a point where ``J`` vanishes (``f = y^3`` at 0) is no false alarm.  A gross error (the
    issue-28 examples: ``-1e4 I`` for ``f = -y``) is caught; a deliberate
    approximation that keeps the dominant terms passes.  Checked once, at ``y0``.
    """
    rng = np.random.default_rng(20241205)  # PCG64: the same signs on every platform
    v = np.where(rng.random(y0.size) < 0.5, -1.0, 1.0) * np.sqrt(np.finfo(float).eps)
    v = v * np.maximum(1.0, np.abs(y0))
    try:
        with np.errstate(all="ignore"):
            plus, minus = np.asarray(f(t0, y0 + v)), np.asarray(f(t0, y0 - v))
    except Exception:  # noqa: BLE001 -- f fails next to y0: the run reports it where it happens
        return
    kinds = "biufc" if y0.dtype.kind == "c" else "biuf"
    if any(a.dtype.kind not in kinds or a.size != y0.size for a in (plus, minus)):
        return  # not n values of y0's kind (complex for a real y0): the run's check of f names it
    plus, minus = plus.astype(y0.dtype).reshape(y0.shape), minus.astype(y0.dtype).reshape(y0.shape)
    with np.errstate(all="ignore"):
        Jv, slow = J @ v, 1e-3 * float(np.max(np.abs(v))) / (t1 - t0)
        misses = []
        for diff in (0.5 * (plus - minus), plus - f0, f0 - minus):
            miss = float(np.max(np.abs(Jv - diff)))
            size = max(float(np.max(np.abs(Jv))), float(np.max(np.abs(diff))))
            misses.append((miss - JAC_MISMATCH * size - slow, miss, size))
    if not all(np.isfinite(m[0]) for m in misses):
        return  # f is not finite next to y0: the run will say so, with its own message
    _, miss, size = misses[0]
    if min(m[0] for m in misses) > 0.0:
        raise ValueError(
            f"jac disagrees with f at t = {t0:g}: along a small step v from y there, J v and the "
            f"difference (f(y + v) - f(y - v)) / 2 differ by {miss:.3g}, "
            f"{miss / max(size, 1e-300):.2g} of their size; jac must return df/dy with "
            "J[i, j] = df_i/dy_j (pass jac=None to let the solver take differences)"
        )
