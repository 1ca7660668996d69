"""The env contract shared by every AgentGym environment (docs/ARCHITECTURE.md §3)."""

from agentgym_envs.core.actions import POINTS, ActionSet, ActionSpec, Arg, Call
from agentgym_envs.core.env import INFO_KEYS, TextEnv
from agentgym_envs.core.spaces import clean_text, text_space
from agentgym_envs.core.splits import DIFFICULTIES, SPLITS, SplitTable, check_choice
from agentgym_envs.core.task import ActionError, EpisodeAborted, Task, Verdict
from agentgym_envs.core.vector import unbatch_info, vector_seeds

__all__ = [
    "DIFFICULTIES",
    "INFO_KEYS",
    "POINTS",
    "SPLITS",
    "ActionError",
    "ActionSet",
    "ActionSpec",
    "Arg",
    "Call",
    "EpisodeAborted",
    "SplitTable",
    "Task",
    "TextEnv",
    "Verdict",
    "check_choice",
    "clean_text",
    "text_space",
    "unbatch_info",
    "vector_seeds",
]
