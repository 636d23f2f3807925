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
``tests/lib/test_architecture.py`` keeps it so.  ``robonum.fast`` (numba
loops for very long runs) is imported on demand: numba alone takes seconds.
"""

import importlib

from . import (
    analysis,
    arm,
    autodiff,
    errors,
    finite_diff,
    floating,
    lie,
    loop,
    methods,
    policy,
    problems,
    record,
)
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


def __getattr__(name):
    """The book layer, loaded on first use (``rn.book``, ``rn.explore``, ``rn.plotting``)."""
    if name in BOOK_LAYER:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'robonum' has no attribute {name!r}")


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
