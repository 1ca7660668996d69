"""TRL for AgentGym envs: multi-turn episodes as ``GRPOTrainer`` rollouts (``EnvRollout``), or
as tool environments for tool-calling models (``environment_factory``). Needs the ``trl`` extra
(and ``train`` for torch/transformers)."""

from agentgym_trl.rollout import EnvRollout, env_reward
from agentgym_trl.tools import ToolEnv, environment_factory, tool_dataset

__all__ = ["EnvRollout", "ToolEnv", "env_reward", "environment_factory", "tool_dataset"]
