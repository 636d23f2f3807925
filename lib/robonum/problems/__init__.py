"""The catalogue of test problems: factories returning :class:`robonum.ODEProblem`.

``classic``: logistic, Dahlquist, the stiff cosine problem, Van der Pol,
Robertson.  ``linear``: a stiff ``y' = Ay`` with chosen eigenvalues.
``oscillators``: harmonic oscillator and simple pendulum (with their
energies).  ``robots``: flexible joint, leg on penalty contact, DC motor.
``analysis``: Jacobian eigenvalues, stiffness ratio, a tight SciPy
reference solution.  Modules with more: ``contact`` (a bouncing
leg, smoothed contact), ``chains`` (an n-link flexible chain), ``testset``
(HIRES, ROBER, VDPOL of the IVP test set, for work-precision diagrams).

Every parameter has a physical range stated (with units and a reason) in
its factory's docstring; outside it, and for NaN/inf, bools, strings,
complex values where reals are meant or wrong shapes, the factories raise
``ValueError``/``TypeError`` naming the parameter.  ``exact(t)`` accepts
``t`` in ``[t0, t0 + L]`` (``L`` = the longest allowed span), where it is
finite and accurate.  The pendulum's exact solution is accurate up to the
separatrix (``H <= (g/l)(1 - 2e-16)``, see :func:`pendulum`).

Example::

    import robonum as rn
    p = rn.problems.stiff_cosine(lam=-1000)
    rn.problems.stiffness_ratio(rn.problems.dc_motor())   # ≈ 197
"""

from . import chains, contact, testset  # noqa: F401 -- reached as attributes, not in __all__
from .analysis import jacobian_eigenvalues, reference_solution, stiffness_ratio
from .classic import dahlquist, logistic, robertson, stiff_cosine, van_der_pol
from .linear import stiff_linear
from .oscillators import harmonic_energy, harmonic_oscillator, pendulum, pendulum_energy
from .robots import dc_motor, flexible_joint, penalty_contact

__all__ = [
    "logistic",
    "dahlquist",
    "stiff_cosine",
    "van_der_pol",
    "robertson",
    "stiff_linear",
    "harmonic_oscillator",
    "harmonic_energy",
    "pendulum",
    "pendulum_energy",
    "flexible_joint",
    "penalty_contact",
    "dc_motor",
    "jacobian_eigenvalues",
    "stiffness_ratio",
    "reference_solution",
]  # the factories and functions; the modules chains, contact, testset are attributes
