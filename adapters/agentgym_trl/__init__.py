"""TRL for AgentGym envs: multi-turn episodes as ``GRPOTrainer`` rollouts (``EnvRollout``).
Needs the ``trl`` extra (and ``train`` for torch/transformers)."""

from agentgym_trl.rollout import EnvRollout, env_reward

__all__ = ["EnvRollout", "env_reward"]
