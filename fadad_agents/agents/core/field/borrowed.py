"""Arrays borrowed for the length of one compiled call: the same memory, no reference held.

numba counts references to an array's memory with atomic operations (``NRT_incref``,
``NRT_decref``) each time compiled code makes a view of it (a row, a slice, a reshape) and
each time it lets one go, unless it can prove a pair of them needless, which it seldom can
across calls that may raise. The compiled melee's round makes views by the thousand (each
search of the field's mirror views its two arrays six ways, each swing its fighter's
stream and figures): a quarter of its time, at 200 fighters and at 20,000, went on those
counts (2026-12-07, ``perf`` of a round with numba's functions named).

A view of a :func:`borrowed` array holds no reference (numba skips the count where there
is none), so a kernel that borrows the arrays it is given, as it begins, makes its views
for free; and a function compiled :func:`uncounted` counts none at all. Sound where
nothing borrowed, nor any view of it, outlives the call: the caller holds the arrays for
its length, and a kernel that returns a number lets none of them out. Under numba's
``NUMBA_DISABLE_JIT`` (the kernels stepped through as the Python they are) a borrowed
array is the array itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from numba import config, types
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

from fadad_agents.agents.core.field.caching import njit

__all__ = ["borrowed", "uncounted"]


def _borrowed(typingctx: Any, array: Any) -> Any:
    """numba's typing and code of :func:`borrowed`."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        given = make_array(signature.args[0])  # type: ignore[no-untyped-call]
        held = given(context, builder, args[0])
        view = make_array(signature.return_type)(context, builder)  # type: ignore[no-untyped-call]
        populate_array(  # type: ignore[no-untyped-call]
            view, data=held.data, shape=held.shape, strides=held.strides,
            itemsize=held.itemsize, meminfo=None,
        )  # fmt: skip
        return view._getvalue()

    return array(array), codegen


def _itself(array: np.ndarray) -> np.ndarray:
    """``array`` itself (Python holds its own references)."""
    return array


borrowed = cast(
    "Callable[[np.ndarray], np.ndarray]",
    _itself if getattr(config, "DISABLE_JIT", 0) else intrinsic(_borrowed),
)
"""``array`` itself, its memory, shape and strides, with no reference held to it (in
compiled code only)."""


def uncounted[F: Callable[..., Any]](function: F) -> F:
    """``function`` compiled (and cached) without numba's reference counts: for one that
    makes views of the arrays it is given and allocates none (numba then refuses to
    compile it), and returns none of them."""
    return cast(F, njit(cache=True, _nrt=False)(function))  # type: ignore[call-overload]
