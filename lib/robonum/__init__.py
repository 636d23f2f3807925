"""robonum: numerical methods for robot software (the library behind the book).

Import as ``import robonum as rn``.  See lib/README.md for the public API.
"""
from . import convergence, explore, methods, style
from .convergence import final_errors, fitted_order, halving, observed_orders
from .integrate import NonlinearSolveError, integrate, integrate_adaptive, make_stepper
from .problem import ODEProblem, Work
from .solution import Solution
from .tableau import ButcherTableau

__version__ = "0.1.0"
