"""Wrappers every LLM user needs: prompts and parsing, admissible-only actions, trajectories."""

from agentgym_envs.wrappers.admissible import AdmissibleOnly
from agentgym_envs.wrappers.prompt import (
    LLMPromptWrapper,
    PromptFormatter,
    Turn,
    approx_tokens,
    parse_action,
)
from agentgym_envs.wrappers.recorder import TrajectoryRecorder

__all__ = [
    "AdmissibleOnly",
    "LLMPromptWrapper",
    "PromptFormatter",
    "TrajectoryRecorder",
    "Turn",
    "approx_tokens",
    "parse_action",
]
