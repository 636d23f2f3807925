"""The compiled path (numba): the book's loops, compiled, for runs where Python's overhead dominates.

* ``fast.integrate(problem, method, h)`` = ``rn.integrate`` with equal steps
  (explicit Runge-Kutta and splitting methods), a hundred times faster for
  the long runs of the energy chapter (:mod:`.fixed_step`);
* ``fast.solve_ivp(f, t_span, y0, rtol=..., jac=...)`` = ``rn.solve_ivp(...,
  method="radau5")`` as one compiled loop (:mod:`.ivp`, :mod:`.radau`):
  the same algorithm without ~150 µs of interpreter time per step.

What is shared with the Python path, so a fix reaches both: the method data
(transformed tableau, Newton caps, controller settings: :mod:`.radau_method`
reads them from :mod:`robonum.steppers.radau`), and every rule, compiled here from the
Python functions themselves: the step-size rule (:func:`robonum.control.step_factor`),
the difference Jacobian's increments (:mod:`robonum.jacobian`), the Jacobian reuse
(:mod:`robonum.steppers.radau_jac`), Newton's convergence and failure tests, the
safety factor, keeping ``h`` and the first guess (:mod:`robonum.steppers.radau_rules`).
What each path writes itself is plumbing: the calls of ``f``, the products with
``T``, ``T^-1`` and the LU solves (numba has no SciPy LU), the counters.
``tests/lib/test_fast_ivp.py`` runs both on the same problems (counts within rounding).

What it buys, measured by ``make bench`` (2026-12-06, this repository's 2-core
machines; the same speeds at the commits before the one-loop redesign): on the
stiff problems at rtol 1e-4 ... 1e-8 with ``jac``, CPU within 3x of LSODA's Fortran
at 44 of 44 accuracy levels and no more than LSODA's at 43 (the Python path: within
3x at 13 of 49), no more CPU than SciPy's better of Radau and BDF at 91 of 91; without
``jac`` 45 of 45 within LSODA's CPU.  Equal-step RK4 on the pendulum 0.36 µs a step
against 30 µs in numpy (about 80x), Verlet 0.09 µs (about 120x).

Not imported by ``import robonum``: numba alone takes seconds to load.
Each call reports its JIT compile time and run time in ``sol.info``.
"""

from .fixed_step import hamiltonian_rhs, integrate, pendulum, pendulum_grad_V
from .ivp import solve_ivp

__all__ = ["integrate", "solve_ivp", "pendulum", "pendulum_grad_V", "hamiltonian_rhs"]
