"""Plots drawn from library objects; every function takes ``ax=None`` and returns what it drew.

matplotlib is imported only when a plot is made (``import robonum`` stays light).
"""
from .regions import RegionPlot, plot_bdf_region, plot_stability_region

__all__ = ["RegionPlot", "plot_stability_region", "plot_bdf_region"]
