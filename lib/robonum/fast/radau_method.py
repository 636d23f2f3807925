"""Radau IIA as data for the compiled loop: the Python stepper's constants and controller settings.

Everything the compiled loop (:mod:`.radau`) knows about the method is read
here from :mod:`robonum.steppers.radau` -- the transformed tableau, the
Newton iteration caps, the controller's exponent and bounds -- so the two
paths share one definition of the method and cannot drift apart.
"""

from __future__ import annotations

import numpy as np

from ..steppers.radau import NIT, STAGES, RadauIIA, constants

# The Python stepper's controller, read from it: _adapt below is its I step with
# Gustafsson's prediction, so it must have no PI memory and be predictive.
_CTL = RadauIIA(3).default_controller()
if _CTL.beta != 0.0 or not _CTL.predictive:
    raise RuntimeError(
        "robonum.fast.radau implements a predictive controller without PI memory; "
        "RadauIIA.default_controller() changed: update _adapt"
    )
SAFETY, FAC_MIN, FAC_MAX = _CTL.safety, _CTL.fac_min, _CTL.fac_max


def method_constants(stages: int) -> tuple:
    """The method as the loop takes it: ``(c, T, Tinv, mu, kappas, e, Vinv, nit, q, initial_order, tics)``.

    The same types for every stage count, so one compiled loop serves them all;
    ``nit`` caps the Newton iterations, ``q`` is the controller's exponent
    denominator and ``initial_order`` the order the first-step formula assumes;
    ``tics[j]`` is the complex row of ``T^-1`` for the pair ``kappas[j]`` (as the stepper's).
    """
    K, st = constants(stages), RadauIIA(stages)
    return (
        np.ascontiguousarray(K["c"]),
        np.ascontiguousarray(K["T"]),
        np.ascontiguousarray(K["Tinv"]),
        float(K["mu"]),
        np.array(K["kappas"], np.complex128),
        np.ascontiguousarray(K["e"]),
        np.ascontiguousarray(K["Vinv"]),
        int(NIT[stages]),
        float(st.default_controller().q),
        int(st.initial_order),
        np.array(K["tics"], np.complex128),
    )


CONSTANTS = {s: method_constants(s) for s in STAGES}
