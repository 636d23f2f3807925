"""Analysis of methods from their coefficients: stability, order conditions, multistep theory, energy.

Nothing here runs an integration; every function reads a method's arrays
(a Butcher tableau, LMM coefficients) or a computed trajectory.  The method
objects of :mod:`robonum.methods` offer the same analysis as methods, e.g.
``rn.methods.get("rk4").real_stability_interval()``.
"""

from . import (
    a_stability,
    backward_error,
    energy,
    multistep,
    order_conditions,
    stability,
    symplecticity,
    zero_stability,
)

__all__ = [
    "a_stability",
    "backward_error",
    "energy",
    "multistep",
    "order_conditions",
    "stability",
    "symplecticity",
    "zero_stability",
]
