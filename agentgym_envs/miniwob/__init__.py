"""MiniWoB++ tasks (Farama's ``miniwob`` HTML) driven by Playwright over system Chromium, in text.

    env = gymnasium.make("AgentGym/MiniWoB-click-checkboxes-v0")        # one task
    env = gymnasium.make("AgentGym/MiniWoB-v0", difficulty="hard", split="ood")   # a tier
    obs, info = env.reset(seed=0)      # info["expert_action"]: the oracle's next move
    obs, reward, terminated, truncated, info = env.step("click [2]")

Modules: ``tasks`` (the task table, import-light), ``browser`` (one Chromium per process),
``page``/``async_page`` (the episode protocol and actions), ``page_js`` (the in-page scripts),
``dom_text`` (observation text), ``actions`` (the action grammar), ``env`` (``MiniWoBEnv``),
``vector`` (``MiniWoBVectorEnv``, for ``make_vec``), ``adversarial`` (decoys), ``oracles``
(scripted experts).
Set-up: ``scripts/install_miniwob.sh``. Importing this package is cheap: Playwright is imported
only when an env is created.
"""

from agentgym_envs.miniwob.tasks import EXCLUDED, TASKS, TEXT_TASKS, registration_entries

__all__ = ["EXCLUDED", "TASKS", "TEXT_TASKS", "registration_entries"]
