"""Exact odds of a Fae defence: what a dodge or an acrobatic dodge leaves of a blow.

``fae-domains.md`` 2.2 (dodge: the dodge margin is subtracted from the attack margin) and
2.3 (acrobatic dodge: the Acrobatics margin is added to the dodge test; if the Acrobatics
test fails there is no dodge at all), with ``fae.acrobatic_bonus``. A defender who knows
the margin of the blow coming at it can weigh the two, as a player would: the acrobatic
dodge risks everything on the Acrobatics test and costs a full action.

>>> dict(dodge_outcomes(30))[0]  # 70 failures, and a roll of 30: margin 0
Fraction(71, 100)
>>> margin_left(20, dodge_outcomes(30)) < 20
True
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from fadad_agents.rules.core.dice import Distribution
from fadad_agents.rules.fae.attack import acrobatic_dodge
from fadad_agents.rules.fae.checks import check_outcomes
from fadad_agents.rules.fae.options import FaeOptions

__all__ = ["acrobatic_dodge_outcomes", "dodge_outcomes", "margin_left"]


@lru_cache(maxsize=4096)
def dodge_outcomes(dodge_mcs: int, options: FaeOptions | None = None) -> Distribution[int]:
    """Exact distribution of a dodge's margin (0 when the dodge fails)."""
    out: dict[int, Fraction] = {}
    for check, p in check_outcomes(dodge_mcs, options):
        key = check.margin if check.success else 0
        out[key] = out.get(key, Fraction(0)) + p
    return sorted(out.items())


@lru_cache(maxsize=4096)
def acrobatic_dodge_outcomes(
    dodge_mcs: int, acrobatics_mcs: int, options: FaeOptions | None = None
) -> Distribution[int]:
    """Exact distribution of an acrobatic dodge's margin (0: the Acrobatics test or the
    dodge failed)."""
    opts = options or FaeOptions()
    out: dict[int, Fraction] = {}
    for acro, p in check_outcomes(acrobatics_mcs, opts):
        if not acro.success:
            out[0] = out.get(0, Fraction(0)) + p
            continue
        for roll in range(1, 101):
            res = acrobatic_dodge(dodge_mcs, acro, roll, opts)
            key = res.margin if res is not None and res.success else 0
            out[key] = out.get(key, Fraction(0)) + p / 100
    return sorted(out.items())


def margin_left(attack_margin: int, dodge: Distribution[int]) -> Fraction:
    """Expected attack margin left after a dodge of that distribution (0 = sidestepped)."""
    return sum((p * max(0, attack_margin - d) for d, p in dodge), Fraction(0))
