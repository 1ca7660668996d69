"""The benchmark runner: suites of envs × agents → results, reports and plots."""

from agentgym_bench.runner import EpisodeResult, installed_env_ids, run_benchmark, run_episode

__all__ = ["EpisodeResult", "installed_env_ids", "run_benchmark", "run_episode"]
