"""``solve_ivp``: SciPy's signature in front of robonum's driver, for readers who compare with SciPy.

Placeholder until the adaptive stiff solvers land: it maps the SciPy call
onto :func:`robonum.integrate` with the explicit embedded pair ``"dopri5"``.
"""
from __future__ import annotations

import numpy as np

from . import _validate as check
from .integrate import integrate
from .problem import ODEProblem

METHODS = {"dopri5": "dopri5", "RK45": "dopri5"}


def solve_ivp(fun, t_span, y0, method: str = "dopri5", *, rtol: float = 1e-3, atol: float = 1e-6,
              jac=None, first_step=None, max_step=np.inf):
    """``scipy.integrate.solve_ivp``-style call; returns a :class:`robonum.Solution`.

    ``method`` is ``"dopri5"`` (alias ``"RK45"``).
    """
    check.one_of("method", method, METHODS)
    problem = ODEProblem(fun, y0, t_span, jac=jac, name="solve_ivp")
    max_step = None if max_step is None or max_step == np.inf else max_step
    return integrate(problem, METHODS[method], rtol=rtol, atol=atol, first_step=first_step,
                     max_step=max_step)
