"""``RayVectorEnv`` (see ``agentgym_envs.core.ray_vector``, where it lives so that the trainer
can use it as a rollout backend) and ``EnvGroup``, its Ray actor class."""

from agentgym_envs.core.ray_vector import RayVectorEnv, env_group_actor

EnvGroup = env_group_actor()

__all__ = ["EnvGroup", "RayVectorEnv"]
