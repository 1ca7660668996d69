"""Stable-Baselines3 for AgentGym envs: hashed text observations, ``Discrete`` actions over the
admissible actions, action masks for ``sb3_contrib.MaskablePPO``. Needs the ``sb3`` extra."""

from agentgym_sb3.env import EMPTY_SLOT_ACTION, SB3TextEnv, make_sb3_env
from agentgym_sb3.featurize import TextHasher

__all__ = ["EMPTY_SLOT_ACTION", "SB3TextEnv", "TextHasher", "make_sb3_env"]
