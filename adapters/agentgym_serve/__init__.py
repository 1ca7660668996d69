"""AgentGym envs as a service: ``agentgym serve ENV_ID...`` serves any registered ids over
OpenEnv's protocol (HTTP and WebSocket, one env per session), so a verl, OpenRLHF, NeMo-Gym, TRL
OpenEnv or non-Python user plays them over the network. Needs the ``serve`` extra."""

from agentgym_serve.sessions import ServerSettings, SessionError, Sessions

__all__ = ["ServerSettings", "SessionError", "Sessions"]
