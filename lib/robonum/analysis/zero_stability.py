"""The root condition of a linear multistep method: is ``rho`` zero-stable?

Split from :mod:`robonum.analysis.multistep` (which re-exports both names); the
convention is the same: ``rho(zeta) = sum_j alpha_j zeta^(k-j)``, ``alpha[0]`` the
newest value's coefficient.
Reference: Hairer, Norsett & Wanner, *Solving ODEs I*, sec. III.3.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate as check

# Roots this close to the unit circle count as "on" it (numpy's roots of these
# small, well-scaled polynomials carry rounding errors of order 1e-14).
ROOT_TOL = 1e-9
MAX_K = 12  # steps of a multistep method (robonum.analysis.multistep re-exports it)


@dataclass(frozen=True)
class ZeroStability:
    """Result of the root condition for ``rho``.

    ``stable`` is True when every root has ``|zeta| <= 1`` and the roots on the
    unit circle are simple; ``roots`` are sorted by decreasing modulus, so
    ``roots[0]`` is the offending root when unstable; ``max_modulus`` its size.
    """

    stable: bool
    roots: np.ndarray
    max_modulus: float
    reason: str


def zero_stability(alpha) -> ZeroStability:
    """Check the root condition for ``rho(zeta) = sum_j alpha_j zeta^(k-j)``.

    Zero-stable iff all roots lie in the closed unit disc and those of modulus
    one are simple (Dahlquist).  A root counts as on the circle within 1e-9
    and as repeated when two roots are within 1e-6 (a multiple root is
    computed only to about sqrt(machine eps)).
    Example: BDF7's ``rho`` has a root of modulus about 1.0222: not zero-stable.
    Reference: Hairer, Norsett & Wanner, *Solving ODEs I*, sec. III.3.
    """
    a = check.real_array("alpha", alpha, ndim=1, max_size=MAX_K + 1)
    if a.size < 2 or a[0] == 0.0:
        raise ValueError("alpha must have k+1 >= 2 entries with alpha[0] != 0")
    with np.errstate(over="ignore"):
        monic = a / a[0]  # np.roots divides by alpha[0] as well: the ratios must be finite
    if not np.all(np.isfinite(monic)):
        raise ValueError(
            f"alpha: alpha_j / alpha_0 overflows a double (alpha_0 = {a[0]:.3g}, "
            f"max |alpha_j| = {np.abs(a).max():.3g}); scale alpha so that alpha_0 = 1"
        )
    roots = np.roots(a)
    roots = roots[np.argsort(-np.abs(roots), kind="stable")]
    mod = np.abs(roots)
    max_mod = float(mod.max()) if roots.size else 0.0
    if max_mod > 1 + ROOT_TOL:
        return ZeroStability(
            False, roots, max_mod, f"root {roots[0]:.6g} has modulus {max_mod:.10g} > 1"
        )
    for r in roots[np.abs(mod - 1) <= ROOT_TOL]:
        if int(np.sum(np.abs(roots - r) <= 1e-6)) > 1:
            return ZeroStability(
                False, roots, max_mod, f"root {r:.6g} on the unit circle is not simple"
            )
    return ZeroStability(True, roots, max_mod, "root condition holds")
