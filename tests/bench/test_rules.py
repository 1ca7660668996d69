"""Per-env rule checks: WebShop's price bound on hand-made purchases, the violation rates of a
summary, and a rule-baseline run whose report gives them and whose replay checks them."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest
from agentgym_bench.replay import verify_run
from agentgym_bench.rules import RULES, check_rules, webshop_price_bound
from agentgym_bench.stats import rule_rates, summarize
from agentgym_bench.suite_runner import RunSettings, read_episodes, run_suite
from agentgym_bench.suites import resolve
from agentgym_bench.viewer import page_html

import agentgym_envs  # noqa: F401  (registers the envs)

WEBSHOP = "AgentGym/WebShop-v0"
SUITE = """\
name: rules
version: 1
description: WebShop easy and hard test tasks
envs:
  AgentGym/WebShop-v0:
    difficulties: [easy, hard]
    splits: [test]
    episodes: 4
"""


def test_price_bound_rule_on_hand_made_outcomes():
    assert webshop_price_bound({}, {"price_upper": 40.0, "purchased_price": 45.5})
    assert not webshop_price_bound({}, {"price_upper": 40.0, "purchased_price": 39.99})
    assert not webshop_price_bound({}, {"price_upper": 40.0, "purchased_price": 40.0})
    assert not webshop_price_bound({}, {"price_upper": 40.0, "purchased_price": None})  # no buy
    assert not webshop_price_bound({}, {"price_upper": None, "purchased_price": 999.0})  # no bound
    assert check_rules(WEBSHOP, {}, {"price_upper": 10.0, "purchased_price": 11.0}) == {
        "price_bound": True
    }
    assert check_rules("AgentGym/Toy-v0", {}, {}) is None  # a family without rules
    assert set(RULES) == {"webshop"}


def _buy(env: gym.Env, task_id: str, over: bool) -> tuple[dict, dict]:
    """Search the goal, open a result priced over (or within) the goal's bound, buy it."""
    observation, info = env.reset(seed=0, options={"task_id": task_id})
    bound = info["price_upper"]
    assert bound is not None and "purchased_price" not in info  # no purchase yet
    actions = [f"search[{info['goal']}]"]
    observation, _, _, _, info = env.step(actions[0])
    task = env.unwrapped.task
    products = task.shop.products
    listed = {a.removeprefix("click[").removesuffix("]") for a in info["admissible_actions"]}
    rows = [r for r in task.session.results if products.product(r).asin.lower() in listed]
    row = next(r for r in rows if (products.product(r).price > bound) == over)
    for action in (f"click[{products.product(row).asin.lower()}]", "click[buy now]"):
        observation, _, terminated, _, info = env.step(action)
        actions.append(action)
    assert terminated and info["purchased_price"] == products.product(row).price
    return {"goal": info["goal"], "steps": [{"action": a} for a in actions]}, info


def test_hand_made_webshop_purchases_over_and_within_the_bound():
    env = gym.make(WEBSHOP, difficulty="easy", split="test")
    try:
        task_id = env.unwrapped.task_ids()[0]
        over, info_over = _buy(env, task_id, over=True)
        under, info_under = _buy(env, task_id, over=False)
    finally:
        env.close()
    assert check_rules(WEBSHOP, over, info_over) == {"price_bound": True}
    assert check_rules(WEBSHOP, under, info_under) == {"price_bound": False}
    records = [
        {"env_id": WEBSHOP, "difficulty": "easy", "split": "test", "error": None, "score": 0.5,
         "success": False, "length": 3, "rule_violations": {"price_bound": flag}}
        for flag in (True, False, False, True)
    ] + [{"env_id": WEBSHOP, "difficulty": "easy", "split": "test", "error": "boom",
          "score": 0.0, "success": False, "length": 0}]  # fmt: skip
    # the errored episode counts as breaking every rule: an error never hides a violation
    assert rule_rates(records) == {"rule_episodes": 5, "rule_violation_rate": 0.6,
                                   "rule_violation_rates": {"price_bound": 0.6}}  # fmt: skip
    (row,) = summarize(records)
    assert row["rule_episodes"] == 5 and row["rule_violation_rate"] == 0.6
    assert "rule_violation_rate" not in summarize([{**r, "env_id": "AgentGym/Toy-v0"}
                                                   for r in records[-1:]])[0]  # fmt: skip


@pytest.fixture(scope="module")
def rule_run(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("rules")
    (folder / "rules.yaml").write_text(SUITE)
    run_dir = folder / "run"
    run_suite(resolve(str(folder / "rules.yaml")), RunSettings("webshop-rule"), run_dir,
              progress=False)  # fmt: skip
    return run_dir


def test_rule_baseline_run_reports_its_violation_rate(rule_run):
    records = read_episodes(rule_run)
    assert len(records) == 8 and all(r["error"] is None for r in records)
    assert all(set(r["rule_violations"]) == {"price_bound"} for r in records)
    rows = json.loads((rule_run / "summary.json").read_text())["rows"]
    for row in rows:
        mine = [r for r in records if r["difficulty"] == row["difficulty"]]
        broke = sum(r["rule_violations"]["price_bound"] for r in mine)
        assert row["rule_episodes"] == 4
        assert row["rule_violation_rate"] == row["rule_violation_rates"]["price_bound"] == broke / 4
    report = (rule_run / "report.md").read_text()
    assert "price_bound violations" in report and "Rule checks" in report
    check = verify_run(rule_run, progress=False, suite_file=rule_run.parent / "rules.yaml")
    assert check.verified, check.reasons
    assert any(r["rule_violations"]["price_bound"] for r in records)  # hard goals: decoys over it
    page = page_html(rule_run)  # agentgym inspect names the rules an episode broke
    assert '"rule_violations": {"price_bound": true}' in page and "rules broken" in page


def test_replay_rejects_edited_rule_flags(rule_run, tmp_path):
    run_dir = tmp_path / "edited"
    run_dir.mkdir()
    for name in ("run.json", "summary.json"):
        (run_dir / name).write_bytes((rule_run / name).read_bytes())
    records = read_episodes(rule_run)
    records[0]["rule_violations"] = {
        "price_bound": not records[0]["rule_violations"]["price_bound"]
    }
    (run_dir / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    check = verify_run(run_dir, progress=False, suite_file=rule_run.parent / "rules.yaml")
    assert not check.verified  # the summary no longer agrees with the episodes
    summary = json.loads((run_dir / "summary.json").read_text())
    summary["rows"] = summarize(records)  # and when it is made to agree, the replay refuses
    (run_dir / "summary.json").write_text(json.dumps(summary))
    check = verify_run(run_dir, progress=False, suite_file=rule_run.parent / "rules.yaml")
    assert any("recorded rule_violations" in reason for reason in check.reasons), check.reasons
    del records[0]["rule_violations"]  # flags dropped from one episode
    (run_dir / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    summary["rows"] = summarize(records)
    (run_dir / "summary.json").write_text(json.dumps(summary))
    check = verify_run(run_dir, progress=False, suite_file=rule_run.parent / "rules.yaml")
    assert not check.verified and any("rule_violations" in r for r in check.reasons)
