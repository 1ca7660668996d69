"""AgentGym environments: text tasks for LLM agents as registered Gymnasium envs.

``import agentgym_envs`` registers every ``AgentGym/...`` id cheaply; ``gymnasium.make`` then
imports only the env you ask for.
"""

from typing import TYPE_CHECKING, Any

from agentgym_envs.core.episode import Trajectory, play_episode
from agentgym_envs.registration import ENTRIES, make_vec, register_all

if TYPE_CHECKING:
    from agentgym_envs.checker import check_text_env

__version__ = "0.1.0"

register_all()


def __getattr__(name: str) -> Any:
    """``check_text_env`` (the env contract's checker) is imported on first use."""
    if name == "check_text_env":
        from agentgym_envs.checker import check_text_env

        return check_text_env
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ENTRIES",
    "Trajectory",
    "__version__",
    "check_text_env",
    "make_vec",
    "play_episode",
    "register_all",
]
