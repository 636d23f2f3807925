"""robonum: numerical methods for robot software (the library behind the book).

Import as ``import robonum as rn``.  See lib/README.md for the public API.
Subpackages: ``methods`` (tableaux), ``steppers``, ``problems``, ``autodiff``,
``explore`` (interactive figures), ``lie`` (rotations); modules ``stability``,
``order_conditions``, ``multistep``, ``newton``, ``symplectic``, ``energy``,
``finite_diff``, ``convergence``, ``style``.  ``robonum.fast`` (numba loops
for very long runs) is imported on demand: numba alone takes seconds to load.
"""
from . import (analysis, arm, autodiff, book, convergence, errors, explore, finite_diff, lie, methods,
               newton, plotting, problems, symplectic)
from .analysis import energy, multistep, order_conditions, stability
from .convergence import final_errors, fitted_order, halving, observed_orders
from .errors import NonlinearSolveError, RobonumError
from .integrate import integrate, integrate_adaptive, make_stepper
from .methods.implicit import collocation, gauss_legendre, radau_iia
from .analysis.multistep import bdf_alpha_angle, bdf_coefficients, zero_stability
from .newton import NewtonOptions
from .analysis.order_conditions import order_of
from .problem import ODEProblem, Work
from .solution import Solution
from .analysis.stability import (R_at_infinity, imag_stability_interval, is_A_stable, is_L_stable,
                        real_stability_interval, stability_function)
from .plotting import plot_bdf_region, plot_stability_region
from .steppers import BDF, ExplicitRK, ImplicitRK
from .symplectic import HamiltonianSolution, integrate_symplectic, symplectic_step
from .tableau import ButcherTableau

__version__ = "0.1.0"
