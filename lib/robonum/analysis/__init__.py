"""Analysis of methods from their coefficients: stability, order conditions, multistep theory, energy.

Nothing here runs an integration; every function reads a method's arrays
(a Butcher tableau, LMM coefficients) or a computed trajectory.
"""
from . import energy, multistep, order_conditions, stability

__all__ = ["energy", "multistep", "order_conditions", "stability"]
