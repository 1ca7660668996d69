"""AgentGym environments: text tasks for LLM agents as registered Gymnasium envs.

``import agentgym_envs`` registers every ``AgentGym/...`` id cheaply; ``gymnasium.make`` then
imports only the env you ask for.
"""

from agentgym_envs.core.episode import Trajectory, play_episode
from agentgym_envs.registration import ENTRIES, make_vec, register_all

__version__ = "0.1.0"

register_all()

__all__ = ["ENTRIES", "Trajectory", "__version__", "make_vec", "play_episode", "register_all"]
