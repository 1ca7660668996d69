"""Play a resolved suite with one agent, resumably, into a run folder (``run_folder``).

``run_suite`` plays every episode of the suite the folder does not hold yet on worker processes
or Ray actors (``scheduler``; each worker plays with ``player.EpisodePlayer``, up to
``batch_size`` episodes in lock-step), appends each record as it arrives, then writes the summary
and report. A run that stops is started again with the same command and plays only what is
missing (the file never holds an episode twice); an agent that raises, a worker that dies and an
episode past ``episode_timeout`` seconds are recorded as errors with their reason.

Prompt settings (the suite's ``prompt`` and its variants) reach the agents that build prompts
(``agent_specs.apply_prompt_settings``); the built-in agents that take no prompts are refused on a
suite with variants (every variant would play the same) and on plain prompt settings play
without them, which the report says.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentgym_bench.agent_specs import public_options, sees_oracle
from agentgym_bench.player import RunSettings
from agentgym_bench.provenance import now, provenance
from agentgym_bench.run_folder import RunDir, RunMismatch
from agentgym_bench.suites import Resolved


class PromptVariantsRefused(ValueError):
    """A suite with prompt variants and an agent that takes no prompts."""


BACKENDS = ("processes", "ray")


def read_episodes(run_dir: Path) -> list[dict[str, Any]]:
    """The finished episodes of a run folder (``RunDir.records``)."""
    return RunDir(run_dir).records()


def refuse_variants(suite: Resolved, agent: str) -> None:
    """A suite with prompt variants played by a built-in agent that takes no prompts would
    play every variant the same: refused, with what to do instead."""
    from agentgym_bench.agent_specs import NO_PROMPTS

    if suite.variants and agent in NO_PROMPTS:
        raise PromptVariantsRefused(
            f"suite {suite.name} plays each episode under the prompt variants "
            f"{', '.join(suite.variants)}, but agent {agent!r} takes no prompts (random, oracle "
            "and webshop-rule ignore prompt settings), so every variant would play the same: use "
            "an LLM agent (openai:MODEL, hf:MODEL, run:PATH) or a suite without variants"
        )


def new_run(suite: Resolved, settings: RunSettings) -> dict[str, Any]:
    """run.json of a run about to start."""
    from agentgym_bench.llm_agents import public_url

    return {
        "agent": {
            "spec": settings.agent,
            "options": public_options(settings.agent, settings.agent_options),
            "sees_oracle": sees_oracle(settings.agent),
        },
        "suite": suite.describe(),
        "provenance": provenance(),
        "settings": {
            "workers": settings.workers,
            "episode_timeout": settings.episode_timeout,
            "backend": settings.backend,
            **({"batch_size": settings.batch_size} if settings.batch_size > 1 else {}),
            **({"env_url": public_url(settings.env_url)} if settings.env_url else {}),
        },
        "started": now(),
        "finished": None,
    }


def run_suite(
    suite: Resolved,
    settings: RunSettings,
    run_dir: Path,
    retry_errors: bool = False,
    progress: bool = True,
    changed_options: bool = False,
) -> dict[str, Path]:
    """Play every episode of ``suite`` not yet in ``run_dir``; write the summary and report.
    Resuming with other agent options is refused unless ``changed_options``."""
    from tqdm.auto import tqdm

    from agentgym_bench.scheduler import Scheduler

    refuse_variants(suite, settings.agent)
    if settings.batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {settings.batch_size}")
    folder = RunDir(run_dir)
    run = folder.start(new_run(suite, settings), changed_options)
    wanted = {spec.key: spec for spec in suite.episodes}
    done = {r["key"]: r for r in folder.records() if r.get("key") in wanted}
    if retry_errors:
        done = {k: r for k, r in done.items() if not r.get("error")}
    folder.keep(set(done))
    todo = [spec for key, spec in wanted.items() if key not in done]
    bar = tqdm(total=len(wanted), initial=len(done), unit="episode", disable=not progress,
               desc=f"{settings.agent} on {suite.name}")  # fmt: skip
    if todo:
        prompts = {(s.env_id, s.variant): suite.prompt_for(s.env_id, s.variant) for s in todo}
        with folder.appending() as append:

            def record(result: Any) -> None:
                append(result)
                bar.update()

            Scheduler(settings, prompts).run(todo, record)
    bar.close()
    records = [r for r in folder.records() if r["key"] in wanted]
    run["finished"] = now()
    agents = [r["agent"] for r in records if r.get("agent")]
    run["agent"]["description"] = agents[0] if agents else {"spec": settings.agent}
    folder.write_run(run)
    return folder.write_summary(run, records)


__all__ = [
    "PromptVariantsRefused",
    "RunMismatch",
    "RunSettings",
    "read_episodes",
    "refuse_variants",
    "run_suite",
]
