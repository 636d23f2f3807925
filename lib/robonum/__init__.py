"""robonum: numerical methods for robot software (the library behind the book).

Import as ``import robonum as rn``; lib/README.md is the API page.  One way
per job:

* a problem is an :class:`ODEProblem` (or a :class:`HamiltonianProblem`);
* a method is data from the catalogue, ``rn.methods.get("rk4")``;
* :func:`integrate` runs it -- equal steps with ``h=...``, adaptive steps
  with ``rtol``/``atol`` -- and returns a :class:`Solution`
  (:func:`solve_ivp` is the same driver behind SciPy's signature);
* :func:`convergence_study` measures errors and orders.

Packages: ``methods`` (catalogue), ``steppers``, ``analysis`` (stability,
order conditions, multistep theory, energy), ``plotting``, ``problems``,
``lie`` (rotations), ``autodiff``, ``explore`` (interactive figures),
``book`` (the book's style, Korean text, tables, exercises).
``robonum.fast`` (numba loops for very long runs) is imported on demand:
numba alone takes seconds to load.
"""
from . import (analysis, arm, autodiff, book, errors, explore, finite_diff, lie, methods,
               plotting, problems)
from .control import StepController
from .convergence import ConvergenceStudy, convergence_study, fitted_order, halving, observed_orders
from .integrate import integrate
from .ivp import solve_ivp
from .newton import NewtonOptions
from .problem import HamiltonianProblem, ODEProblem, Work
from .solution import Solution
from .steppers import ExplicitRK, ImplicitRK, Multistep, Stepper, Symplectic, make_stepper
from .tableau import ButcherTableau

__version__ = "0.2.0"

__all__ = [
    "integrate", "solve_ivp", "convergence_study", "ConvergenceStudy", "halving",
    "observed_orders", "fitted_order", "ODEProblem", "HamiltonianProblem", "Work", "Solution",
    "ButcherTableau", "Stepper", "ExplicitRK", "ImplicitRK", "Multistep", "Symplectic",
    "make_stepper", "NewtonOptions", "StepController", "analysis", "arm", "autodiff", "book",
    "errors", "explore", "finite_diff", "lie", "methods", "plotting", "problems",
]
