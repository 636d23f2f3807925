"""SciPy's solver class names as robonum methods, for the adapted ``test_ivp.py``.

SciPy passes its classes as ``method=RK45`` and also calls them directly,
``RK45(fun, t0, y0, t_bound, **options)``, to step a run by hand.  Here each
name is robonum's method name (a ``str``, so ``solve_ivp`` takes it as such)
that, when called, builds ``rn.IVPSolver``, robonum's ``OdeSolver``-shaped object.
"""

import robonum as rn


class SolverName(str):
    """A robonum method name that can be called like SciPy's solver class."""

    def __call__(self, fun, t0, y0, t_bound, **options):
        return rn.IVPSolver(fun, t0, y0, t_bound, method=str(self), **options)


RK23 = SolverName("bs23")
RK45 = SolverName("dopri5")
Radau = SolverName("radau5")
BDF = SolverName("bdf")
