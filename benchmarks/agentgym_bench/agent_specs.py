"""Agents the benchmark runner can play, named on the command line.

- ``random`` / ``oracle``: the built-in floor and ceiling (``agentgym_envs.agents``).
- ``webshop-rule``: the WebShop paper's rule baseline (search the instruction, open the first
  result, buy it without choosing options; paper: 45.6 score, 9.6% success).
- ``openai:MODEL``: any OpenAI-compatible chat endpoint (``llm_agents``).
- ``run:PATH``: a policy trained with ``agentgym-train``, from its run directory (latest or
  best checkpoint) or an export (``trained_agent``).
- ``hf:MODEL``: a local Hugging Face causal LM (``smollm2-135m-instruct`` or a model directory)
  played through the trainer's prompts and action parsing (``trained_agent``).
- ``package.module:callable``: your own; ``callable(env, **options)`` returns an object with
  ``act(observation, info) -> str | None`` and optionally ``reset(seed)`` and ``describe()``;
  with ``start_slot(slot, seed)`` and ``act_batch(slots, observations, infos)`` it plays
  batches under ``--batch-size`` (``lockstep``), as ``hf:``, ``run:`` and ``openai:`` do.

Each worker process builds one agent per env it plays, so agents need not be picklable.

A suite's prompt settings (history budget in turns or tokens, admissible list, reasoning, system
template) reach every agent that builds its prompts with a ``PromptFormatter``: the ``openai:``
agents (``formatter``), ``hf:`` and ``run:`` (the trainer's formatter), and a custom agent that
exposes one as ``formatter`` or ``prompt_formatter()``. The others take no prompts.
"""

from __future__ import annotations

import importlib
import inspect
import re
from typing import Any

import gymnasium as gym

from agentgym_envs.agents import AGENTS, make_agent
from agentgym_envs.wrappers.prompt import PromptFormatter

_PRODUCT_CLICK = re.compile(r"click\[b0[0-9a-z]{8}\]")


class WebShopRuleAgent:
    """The WebShop paper's rule baseline, on the text env's admissible actions."""

    name = "webshop-rule"

    def act(self, observation: str, info: dict[str, Any]) -> str | None:
        actions = info.get("admissible_actions") or []
        if "click[buy now]" in actions:
            return "click[buy now]"
        products = [a for a in actions if _PRODUCT_CLICK.fullmatch(a)]
        if products:
            return products[0]
        return f"search[{info.get('goal') or ''}]"


BUILT_IN = (*AGENTS, "webshop-rule")
#: the agents that see the oracle (``info["expert_action"]``); every other agent's envs are
#: made with ``expert=False``, so no agent can copy the oracle's moves (recorded in run.json as
#: ``agent.sees_oracle`` and checked by the verifier)
ORACLE_AGENTS = ("oracle",)


def sees_oracle(agent: str) -> bool:
    """True for the agents whose envs give the oracle's next action."""
    return agent in ORACLE_AGENTS


#: built-in agents that build no prompts, so prompt settings and variants do not reach them
NO_PROMPTS = BUILT_IN


def make(spec: str, env: gym.Env, options: dict[str, Any] | None = None) -> Any:
    """The agent ``spec`` names, for ``env`` (see the module docstring)."""
    options = dict(options or {})
    if spec in AGENTS:
        return make_agent(spec)
    if spec == "webshop-rule":
        return WebShopRuleAgent()
    if spec.startswith("openai:"):
        from agentgym_bench.llm_agents import make_llm_agent

        return make_llm_agent(spec, env, **options)
    if spec.startswith("run:"):
        from agentgym_bench.trained_agent import make_trained_agent

        return make_trained_agent(env, run=spec.removeprefix("run:"), **options)
    if spec.startswith("hf:"):
        from agentgym_bench.trained_agent import make_hf_agent

        return make_hf_agent(env, spec.removeprefix("hf:"), **options)
    return custom_factory(spec)(env, **options)


def custom_factory(spec: str) -> Any:
    """The callable a ``package.module:callable`` spec names; ValueError when it names none."""
    module_name, _, attribute = spec.partition(":")
    if not attribute or not module_name:
        raise ValueError(f"unknown agent {spec!r}: use one of {', '.join(BUILT_IN)}, "
                         "openai:MODEL, hf:MODEL, run:PATH or package.module:callable")  # fmt: skip
    try:
        return getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as error:
        raise ValueError(
            f"agent {spec!r}: cannot load {attribute} from {module_name}: {error}"
        ) from error


#: options that are secrets: used to play, never written to a run folder
SECRET_OPTIONS = ("api_key",)


def option_names(spec: str) -> tuple[str, ...] | None:
    """The ``--agent-option`` names agent ``spec`` takes (None: any, a custom callable with
    ``**options``); ValueError when ``spec`` names no agent that can be loaded."""
    if spec in BUILT_IN:
        return ()
    if spec.startswith("openai:"):
        from agentgym_bench.llm_agents import OpenAIChatAgent

        return _parameters(OpenAIChatAgent.__init__, skip=("self", "action_help", "model"))
    if spec.startswith(("run:", "hf:")):
        from agentgym_bench.trained_agent import TRAINED_OPTIONS

        return TRAINED_OPTIONS
    return _parameters(custom_factory(spec), first=1)


def _parameters(function: Any, skip: tuple[str, ...] = (), first: int = 0
                ) -> tuple[str, ...] | None:  # fmt: skip
    """The keyword parameter names of ``function`` after its ``first`` positional ones and
    without ``skip`` (None when it takes ``**kwargs``)."""
    try:
        parameters = list(inspect.signature(function).parameters.values())[first:]
    except (TypeError, ValueError):  # no signature to read: let the call decide
        return None
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return None
    return tuple(p.name for p in parameters if p.name not in skip
                 and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))  # fmt: skip


def check_options(spec: str, options: dict[str, Any]) -> None:
    """ValueError, one line naming the valid options, when agent ``spec`` does not take every
    one of ``options`` (what ``bench run`` checks before it writes a file)."""
    names = option_names(spec)
    unknown = sorted(set(options) - set(names)) if names is not None else []
    if not unknown:
        return
    valid = ", ".join(sorted(names or ())) or "none"
    raise ValueError(f"agent {spec!r} takes no option {', '.join(map(repr, unknown))}; its "
                     f"options: {valid}")  # fmt: skip


def public_options(spec: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` as a run folder may hold them: secrets (``api_key``) left out and a
    ``base_url`` without credentials, query or fragment."""
    from agentgym_bench.llm_agents import public_url

    public = {k: v for k, v in options.items() if k not in SECRET_OPTIONS}
    if isinstance(public.get("base_url"), str):
        public["base_url"] = public_url(public["base_url"])
    return public


def prompt_formatter(agent: Any) -> PromptFormatter | None:
    """The ``PromptFormatter`` ``agent`` builds its prompts with (None: it builds none)."""
    own = getattr(agent, "prompt_formatter", None)
    formatter = own() if callable(own) else getattr(agent, "formatter", None)
    return formatter if isinstance(formatter, PromptFormatter) else None


def apply_prompt_settings(agent: Any, settings: dict[str, Any]) -> bool:
    """Set a suite's prompt ``settings`` (``suites.PROMPT_KEYS``) on ``agent``'s formatter;
    False when it has none (random, oracle, rule agents), True otherwise."""
    formatter = prompt_formatter(agent)
    if formatter is None:
        return False
    for name, value in settings.items():
        if not hasattr(formatter, name):
            raise ValueError(f"prompt setting {name!r} is not a PromptFormatter field")
        setattr(formatter, name, value)
    return True


def describe(spec: str, agent: Any) -> dict[str, Any]:
    """What a result records about the agent: its spec and its own ``describe()`` if any."""
    own = getattr(agent, "describe", None)
    description = dict(own()) if callable(own) else {}
    return {"spec": spec, **description}


__all__ = [
    "BUILT_IN",
    "NO_PROMPTS",
    "ORACLE_AGENTS",
    "SECRET_OPTIONS",
    "WebShopRuleAgent",
    "apply_prompt_settings",
    "check_options",
    "custom_factory",
    "describe",
    "make",
    "option_names",
    "prompt_formatter",
    "public_options",
    "sees_oracle",
]
