"""Per-env rule checks: compliance beyond success, one small function per rule.

A rule says what an agent must never do in an env family, whatever its score: WebShop's goal
bounds the price ("price lower than 40.00 dollars"), so buying an item over the bound breaks it
even when the rest of the purchase scores well. ``RULES`` maps an env family (the registry's
``EnvEntry.family``: ``webshop``, ``alfworld``, ``miniwob``, ``toy``) to its rules, each a function
of the episode's trajectory record and the env's last ``info`` that says whether the episode
broke it. A family adds a rule by adding a function here.

The runner records ``rule_violations`` (rule name -> broken?) on every episode of an env with
rules; ``stats.summarize`` gives the share of episodes that broke any rule and each rule's share
per env x difficulty x split; the replay check recomputes the flags from the replayed episode.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agentgym_envs.registration import entry_for

#: (trajectory record, the env's info after the last step) -> True when the episode broke it
Rule = Callable[[dict[str, Any], dict[str, Any]], bool]


def webshop_price_bound(trajectory: dict[str, Any], info: dict[str, Any]) -> bool:
    """Bought an item priced over the goal's price bound (WebShop's ``info["price_upper"]``,
    absent for a goal without one, and ``info["purchased_price"]``, absent until a purchase)."""
    bound, paid = info.get("price_upper"), info.get("purchased_price")
    return bound is not None and paid is not None and float(paid) > float(bound)


#: env family -> rule name -> rule
RULES: dict[str, dict[str, Rule]] = {
    "webshop": {"price_bound": webshop_price_bound},
}

#: rule name -> what breaking it means, in one line: the leaderboard names each rule with it, so
#: a reader of a rate needs no source (a rule added to ``RULES`` adds its line here)
DESCRIPTIONS: dict[str, str] = {
    "price_bound": "bought an item priced over the goal's price bound",
}


def rules_for(env_id: str) -> dict[str, Rule]:
    """The rules of ``env_id``'s family (empty when it has none)."""
    return RULES.get(entry_for(env_id).family, {})


def check_rules(
    env_id: str, trajectory: dict[str, Any], info: dict[str, Any]
) -> dict[str, bool] | None:
    """Rule name -> broken? for one played episode; None when the env has no rules."""
    rules = rules_for(env_id)
    if not rules:
        return None
    return {name: bool(rule(trajectory, info)) for name, rule in rules.items()}


__all__ = ["DESCRIPTIONS", "RULES", "Rule", "check_rules", "rules_for", "webshop_price_bound"]
