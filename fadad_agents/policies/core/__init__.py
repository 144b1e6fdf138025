"""The policy machinery and the personal-combat decisions.

One ``typing.Protocol`` per decision (:mod:`~fadad_agents.policies.core.protocols`), the
registry by name (:mod:`~fadad_agents.policies.core.registry`), the built-in personal
policies and the per-force :class:`~fadad_agents.policies.core.policy_set.PolicySet`.
"""
