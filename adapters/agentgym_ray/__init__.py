"""Ray for AgentGym envs: ``RayVectorEnv``, a Gymnasium ``VectorEnv`` whose envs live in Ray
actors (one remote call per actor per step). Needs the ``ray`` extra."""

from agentgym_ray.vector import EnvGroup, RayVectorEnv

__all__ = ["EnvGroup", "RayVectorEnv"]
