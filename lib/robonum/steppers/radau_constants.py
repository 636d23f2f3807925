"""Radau IIA in the form its Newton iteration needs, computed from the tableau.

:func:`constants` diagonalises ``A^{-1} = T Lambda T^{-1}`` (one real
eigenvalue ``mu``, complex pairs ``a_j +- i b_j``), builds the embedded
error formula ``b_hat`` with ``gamma_0 = 1/mu`` and the map from stage
increments to the collocation polynomial.  Used by
:class:`robonum.steppers.RadauIIA` and by the compiled loop of
:mod:`robonum.fast`.  Reference: Hairer & Wanner, *Solving ODEs II*,
sec. IV.8; Hairer & Wanner, J. Comput. Appl. Math. 111 (1999) 93-111.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .. import methods


@lru_cache(maxsize=None)
def constants(s: int) -> dict:
    """The transformed method: ``c``, ``A``, ``T``, ``Tinv``, ``mu``, ``kappas``, ``tics``, ``e``, ``Vinv``.

    ``kappas[j] = a_j - i b_j`` and ``tics[j] = Tinv[2j+1] + i Tinv[2j+2]``
    give the ``j``-th complex system; ``e = (b_hat - b)^T A^{-1}``;
    ``Vinv`` maps the stage increments to the coefficients of the collocation
    polynomial in ``(t - t_n)/h``.  Treat as read-only (cached).
    """
    # the catalogue's closed form for 3 stages (nodes (4 -+ sqrt 6)/10), else from the Radau points
    tab = methods.get("radau3") if s == 3 else methods.radau_iia(s)
    A, c, b = tab.A, tab.c, tab.b
    Ainv = np.linalg.inv(A)
    lam, V = np.linalg.eig(Ainv)
    ir = int(np.argmin(np.abs(lam.imag)))
    upper = [int(i) for i in np.argsort(-lam.imag) if lam[i].imag > 1e-8]  # one of each pair
    cols = [V[:, ir].real] + [part for i in upper for part in (V[:, i].real, V[:, i].imag)]
    T = np.column_stack(cols)
    Tinv = np.linalg.inv(T)
    Lam = Tinv @ Ainv @ T
    mu = Lam[0, 0]
    pairs = range(len(upper))
    kappas = [complex(Lam[2 * j + 1, 2 * j + 1], -Lam[2 * j + 1, 2 * j + 2]) for j in pairs]
    gamma0 = 1.0 / mu
    # sum_i b_hat_i c_i^(k-1) = 1/k for k = 1..s, the first with gamma0 taken out
    b_hat = np.linalg.solve(
        np.vstack([c**k for k in range(s)]), [1.0 - gamma0] + [1.0 / k for k in range(2, s + 1)]
    )
    e = (b_hat - b) @ Ainv  # err = ... gamma0 h f0 + e @ Z
    Vinv = np.linalg.inv(np.vander(c, s + 1, increasing=True)[:, 1:])  # Z -> coefficients
    tics = [Tinv[2 * j + 1] + 1j * Tinv[2 * j + 2] for j in pairs]
    return dict(A=A, c=c, T=T, Tinv=Tinv, mu=mu, kappas=kappas, tics=tics, e=e, Vinv=Vinv)
