"""TextEnv's own paths, on a minimal task: abort on infrastructure failure, extra info keys."""

from __future__ import annotations

import gymnasium as gym

import agentgym_envs  # noqa: F401  (registers the ids)
from agentgym_envs.core import EpisodeAborted, TextEnv, Verdict


class CrashyTask:
    task_id = "crashy-0"
    goal = "say hi"

    def __init__(self) -> None:
        self.said = False

    def start(self) -> str:
        return "Say hi."

    def act(self, action: str) -> str:
        if action == "crash":
            raise EpisodeAborted("the engine died")
        self.said = action == "hi"
        return "ok"

    def admissible_actions(self) -> list[str]:
        return ["hi", "crash"]

    def verdict(self) -> Verdict:
        return Verdict(1.0, True, True) if self.said else Verdict()

    def expert_action(self) -> str | None:
        return "hi"

    def extra_info(self) -> dict:
        return {"said": self.said}

    def close(self) -> None:
        pass


class CrashyEnv(TextEnv):
    def __init__(self) -> None:
        super().__init__()
        self.recovered: list[str] = []

    def task_ids(self):
        return ["crashy-0"]

    def make_task(self, task_id, rng):
        return CrashyTask()

    def recover(self, reason: str) -> None:
        self.recovered.append(reason)


def test_aborted_episode_is_truncated_with_a_reason_and_recovers():
    env = CrashyEnv()
    _, info = env.reset(seed=0)
    assert info["said"] is False
    obs, reward, terminated, truncated, info = env.step("crash")
    assert (reward, terminated, truncated) == (0.0, False, True)
    assert info["truncated_reason"] == "the engine died" and "aborted" in obs
    assert env.recovered == ["the engine died"]
    for action in ("hi", "crash", 7):  # the end is reported again; the task is not touched
        _, reward, terminated, truncated, info = env.step(action)
        assert (reward, terminated, truncated) == (0.0, False, True)
        assert info["action_error"].startswith("the episode is over")
        assert info["truncated_reason"] == "the engine died"
    assert env.recovered == ["the engine died"]
    env.reset(seed=1)
    _, reward, terminated, _, info = env.step("hi")
    assert reward == 1.0 and terminated and info["said"] is True


def test_content_version_follows_the_source_files(tmp_path):
    from agentgym_envs.core.env import source_digest

    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "notes.txt").write_text("not source")
    before = source_digest(tmp_path)
    (tmp_path / "notes.txt").write_text("still not source")
    assert source_digest.__wrapped__(tmp_path) == before  # only .py and .json files count
    (tmp_path / "a.py").write_text("x = 2\n")
    assert source_digest.__wrapped__(tmp_path) != before
    env = gym.make("AgentGym/Toy-v0")
    assert env.unwrapped.content_version().startswith("src-")
    env.close()
