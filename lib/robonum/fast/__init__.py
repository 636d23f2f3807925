"""The compiled path (numba): the book's loops, compiled, for runs where Python's overhead dominates.

* ``fast.integrate(problem, method, h)`` = ``rn.integrate`` with equal steps
  (explicit Runge-Kutta and splitting methods), a hundred times faster for
  the long runs of the energy chapter (:mod:`.fixed_step`);
* ``fast.solve_ivp(f, t_span, y0, rtol=..., jac=...)`` = ``rn.solve_ivp(...,
  method="radau5")`` as one compiled loop (:mod:`.ivp`, :mod:`.radau5`):
  the same algorithm without ~150 µs of interpreter time per step.

Not imported by ``import robonum``: numba alone takes seconds to load.
Each call reports its JIT compile time and run time in ``sol.info``.
"""

from .fixed_step import hamiltonian_rhs, integrate, pendulum, pendulum_grad_V
from .ivp import solve_ivp

__all__ = ["integrate", "solve_ivp", "pendulum", "pendulum_grad_V", "hamiltonian_rhs"]
