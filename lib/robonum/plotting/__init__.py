"""Plots drawn from library objects; every function takes ``ax=None`` and returns what it drew.

matplotlib's pyplot is imported only when a function has to make its own figure.
"""

from .convergence import plot_convergence, plot_work_precision
from .derivatives import plot_error_vs_h
from .regions import RegionPlot, plot_stability_region

__all__ = [
    "RegionPlot",
    "plot_stability_region",
    "plot_error_vs_h",
    "plot_convergence",
    "plot_work_precision",
]
