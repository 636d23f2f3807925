"""When Radau IIA evaluates its Jacobian anew: RADAU5's rules, and where they were changed.

Plain arithmetic on purpose: :mod:`robonum.steppers.radau` calls these functions and
:mod:`robonum.fast` compiles the very same ones, so the two paths cannot drift apart.
"""

from __future__ import annotations

THET = 1e-3  # keep an analytic J while the contraction rate stays below this
THET_FD = 0.1  # ... a finite-difference J of a larger system: RADAU5's advice for a costly J
SMALL_SYSTEM = 10  # equations: RADAU5 advises 0.001 "for small systems"


def jac_reuse_theta(has_jac: bool, n: int) -> float:
    """The contraction rate up to which a step keeps ``J``: ``THET`` or ``THET_FD``.

    RADAU5's documentation of WORK(3): 0.001 by default and "for small
    systems", 0.1 "when Jacobian evaluations are costly".  Costly here: a
    finite-difference ``J`` of more than ``SMALL_SYSTEM`` equations.  Measured
    without ``jac`` (f-calls counted by a wrapper, rtol 1e-4 ... 1e-8, the work
    at equal digits over SciPy's better of Radau and BDF): a chain of 20 links
    (``n = 42``) 1.6-1.7 with 0.001, 0.57-0.81 with 0.1; with ``jac_sparsity``
    (6 column groups) 0.65-1.07 and 0.54-0.90; HIRES (``n = 8``) 0.67-0.96
    with 0.001 but up to 1.29 with 0.1 (a fresh ``J`` also sharpens the error
    estimate, which ``J`` filters).  The cost of a ``J`` alone (``n``, or the
    number of column groups, against a Newton iteration's ``s`` calls) did not
    separate these cases; the size did.  Plain arithmetic: ``robonum.fast``
    compiles this same function.
    """
    if has_jac or n <= SMALL_SYSTEM:
        return THET
    return THET_FD


def refresh_jac(theta: float, nit: int, thet: float, has_jac: bool, stages: int) -> bool:
    """After an accepted step: is ``J`` evaluated anew for the next one?

    ``theta`` and ``nit`` are the step's contraction rate and Newton iterations,
    ``thet = jac_reuse_theta(has_jac, n)``.  RADAU5's rule is ``theta > thet``.
    For the 3-stage method with a finite-difference ``J`` a solve of one or two
    iterations keeps ``J`` (SciPy's Radau, also 3 stages, refreshes only after more
    than two): a difference ``J`` costs ``n`` calls (or one per column group).
    Measured without ``jac`` (``tests/benchmarks/bench_ivp_nojac.py``, f-calls
    counted by a wrapper): ROBER at rtol = atol = 1e-6 (SciPy's
    ``test_integration_stiff``) 242 Jacobians and 2,515 calls with RADAU5's rule,
    82 and 2,375 with this one (SciPy's Radau: 84 and 2,214); at equal digits on
    ROBER and OREGO 0-10 % fewer calls, HIRES and VDPOL unchanged within 1-3 %.
    The 5-stage method keeps RADAU's rule: with this one its error estimate,
    which ``J`` filters, lost up to 2 digits on HIRES at rtol 1e-6.
    """
    return theta > thet and (has_jac or stages > 3 or nit > 2)


__all__ = ["THET", "THET_FD", "SMALL_SYSTEM", "jac_reuse_theta", "refresh_jac"]
