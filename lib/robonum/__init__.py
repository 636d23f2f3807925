"""robonum: numerical methods for robot software (the library behind the book).

Import as ``import robonum as rn``; lib/README.md is the API page.  One way
per job:

* a problem is an :class:`ODEProblem` (or a :class:`HamiltonianProblem`);
* a method is data from the catalogue, ``rn.methods.get("rk4")``;
* :func:`integrate` runs it -- equal steps with ``h=...``, adaptive steps
  with ``rtol``/``atol``, or steps by a rule ``h(n, t, y)`` -- and returns a
  :class:`Solution` (:func:`solve_ivp` is the same loop behind SciPy's signature);
* :func:`convergence_study` measures errors and orders.

Two layers.  The core -- ``methods`` (catalogue), ``steppers`` (the contract in
``steppers.base``), ``loop`` and ``policy`` (the one step loop and its step-size
policies), ``analysis``, ``problems``, ``lie``, ``autodiff``, ``finite_diff``,
``floating``, ``arm``, ``record`` -- needs numpy and scipy only.  The book layer -- ``book``
(style, Korean text, tables, exercises, glue, the benchmark harness),
``explore`` (interactive figures) and ``plotting`` -- sits on top, is loaded on
first use (``rn.book``, ``rn.plotting``) and is never imported by the core;
the core's domain packages the loop does not need (``lie``, ``problems``, ``autodiff``,
``arm``, ``finite_diff``, ``floating``, ``record``) load on first use too;
``tests/lib/test_architecture.py`` keeps it so.  ``robonum.fast`` (numba
loops for very long runs) is imported on demand: numba alone takes seconds.
"""

import importlib

from . import analysis, errors, loop, methods, policy
from .control import StepController
from .convergence import ConvergenceStudy, convergence_study, fitted_order, halving, observed_orders
from .integrate import integrate
from .ivp import solve_ivp
from .newton import NewtonOptions
from .problem import HamiltonianProblem, ODEProblem
from .solution import Solution
from .steppers import ExplicitRK, ImplicitRK, Multistep, Stepper, Symplectic, make_stepper
from .stepping import IVPSolver
from .tableau import ButcherTableau
from .work import Work

__version__ = "0.3.0"
BOOK_LAYER = ("book", "explore", "plotting")
# Core packages the step loop does not need, imported on first use (``rn.lie``): together
# about 30 ms of the ~0.1 s robonum adds to numpy's import.
ON_FIRST_USE = ("arm", "autodiff", "finite_diff", "floating", "lie", "problems", "record")


def __getattr__(name):
    """The book layer and :data:`ON_FIRST_USE`, loaded on first use (``rn.book``, ``rn.lie``)."""
    if name in BOOK_LAYER or name in ON_FIRST_USE:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'robonum' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(BOOK_LAYER) | set(ON_FIRST_USE))


__all__ = [
    "integrate",
    "solve_ivp",
    "IVPSolver",
    "convergence_study",
    "ConvergenceStudy",
    "halving",
    "observed_orders",
    "fitted_order",
    "ODEProblem",
    "HamiltonianProblem",
    "Work",
    "Solution",
    "ButcherTableau",
    "Stepper",
    "ExplicitRK",
    "ImplicitRK",
    "Multistep",
    "Symplectic",
    "make_stepper",
    "NewtonOptions",
    "StepController",
    "analysis",
    "arm",
    "autodiff",
    "errors",
    "finite_diff",
    "floating",
    "lie",
    "loop",
    "methods",
    "policy",
    "problems",
    "record",
]
