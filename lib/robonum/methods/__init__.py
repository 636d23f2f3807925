"""The catalogue of methods: every method is data, looked up under a short key.

Three families, each an object that carries its own analysis:

* ``"rk"`` -- Runge-Kutta methods as :class:`robonum.ButcherTableau`
  (``euler``, ``rk4``, ``dopri5``, ``backward_euler``, ``gauss2``, ``radau3`` ...);
* ``"lmm"`` -- linear multistep methods as :class:`LinearMultistep` (``bdf1`` .. ``bdf6``);
* ``"splitting"`` -- symplectic kick/drift compositions as :class:`SplittingMethod`
  (``symplectic_euler``, ``verlet``, ``yoshida4``) for ``H = p·p/2 + V(q)``.

``get("rk4")`` returns the object (a method object passes through unchanged);
``names()`` lists the keys, ``names("lmm")`` those of one family.
"""

from __future__ import annotations

from ..tableau import ButcherTableau
from . import explicit, implicit, multistep, splitting
from .implicit import collocation, gauss_legendre, radau_iia
from .multistep import LinearMultistep, adams_bashforth, adams_moulton, bdf
from .splitting import SplittingMethod

_REGISTRY = {**explicit.ALL, **implicit.ALL, **multistep.ALL, **splitting.ALL}
FAMILIES = ("rk", "lmm", "splitting")
METHOD_TYPES = (ButcherTableau, LinearMultistep, SplittingMethod)


def names(family: str | None = None) -> list[str]:
    """Keys of every registered method, or of one family (``"rk"``, ``"lmm"``, ``"splitting"``)."""
    if family is None:
        return list(_REGISTRY)
    if not isinstance(family, str) or family not in FAMILIES:
        raise ValueError(f"family must be one of {list(FAMILIES)} or None, got {family!r}")
    return [k for k, m in _REGISTRY.items() if m.family == family]


def get(method):
    """The method registered under the key ``method`` (case-insensitive); a method object passes through."""
    if isinstance(method, METHOD_TYPES):
        return method
    if not isinstance(method, str):
        raise TypeError(
            f"method must be a method name or a method object "
            f"(ButcherTableau, LinearMultistep, SplittingMethod), got {type(method).__name__}"
        )
    key = method.strip().lower()
    if key not in _REGISTRY:
        shown = method if len(method) < 40 else method[:40] + "..."
        raise ValueError(f"method must be one of {names()}, got {shown!r}")
    return _REGISTRY[key]


__all__ = [
    "get",
    "names",
    "FAMILIES",
    "ButcherTableau",
    "LinearMultistep",
    "SplittingMethod",
    "collocation",
    "gauss_legendre",
    "radau_iia",
    "bdf",
    "adams_bashforth",
    "adams_moulton",
    "explicit",
    "implicit",
    "multistep",
    "splitting",
]
