"""Steppers: one step of a method, never the choice of the step size (see :mod:`.base`).

``make_stepper(method)`` picks the stepper for any catalogue method:
explicit RK -> :class:`ExplicitRK`, implicit RK -> :class:`ImplicitRK`,
linear multistep -> :class:`Multistep`, splitting -> :class:`Symplectic`.
Build one yourself to pass options, e.g. ``ImplicitRK("radau3", newton=rn.NewtonOptions(tol=1e-12))``.
The adaptive stiff solvers behind ``rn.solve_ivp`` are steppers too: :class:`RadauIIA`
(3 stages = RADAU5, ``method="radau5"``, or 5 stages; ``method="radau"`` picks the
count from ``rtol``) and :class:`VariableBDF` (``method="bdf"``, orders 1-5).
:mod:`.base` declares the contract every stepper keeps.
"""

from .. import methods
from .base import Stepper
from .bdf_variable import VariableBDF
from .explicit import ExplicitRK
from .implicit import ImplicitRK
from .multistep import Multistep
from .radau import RadauIIA
from .symplectic import Symplectic


def make_stepper(method) -> Stepper:
    """The stepper for ``method`` (a name, a method object, or a stepper, which passes through)."""
    if isinstance(method, Stepper):
        return method
    m = methods.get(method)
    if m.family == "rk":
        return ExplicitRK(m) if m.is_explicit else ImplicitRK(m)
    if m.family == "lmm":
        return Multistep(m)
    return Symplectic(m)


__all__ = [
    "Stepper",
    "ExplicitRK",
    "ImplicitRK",
    "Multistep",
    "Symplectic",
    "RadauIIA",
    "VariableBDF",
    "make_stepper",
]
