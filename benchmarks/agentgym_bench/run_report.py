"""``report.md`` of a benchmark run: its summary rows as Markdown tables.

Per env id: one row per difficulty x split (and per prompt variant, side by side, in a suite
with variants) with success (95% CI), mean score, steps, invalid- and admissible-action rates,
rule violations (envs with rule checks) and errors; then the generalization gap (success on
test, ood, adversarial). A note says which prompt settings the agent played with, or that it
takes no prompts; people's ratings (``agentgym inspect``) close it.
"""

from __future__ import annotations

from typing import Any

from agentgym_bench.stats import DIMENSIONS
from agentgym_envs.core.splits import HELD_OUT


def _share(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def _percent(row: dict[str, Any]) -> str:
    low, high = row["success_ci"]
    return f"{100 * row['success_rate']:.1f}% [{100 * low:.0f}–{100 * high:.0f}]"


def prompt_use(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Whether the run's agent took the suite's prompt settings: {"applied": n, "ignored": n}
    over the episodes played with settings (both 0 when the suite has none)."""
    settled = [r["prompt"] for r in records if isinstance(r.get("prompt"), dict)]
    applied = sum(bool(p.get("applied")) for p in settled)
    return {"applied": applied, "ignored": len(settled) - applied}


def _settings_text(settings: dict[str, Any]) -> str:
    def value(key: str, setting: Any) -> str:
        if setting is None:
            return "all" if key == "max_history_turns" else "default"
        return str(setting).lower() if isinstance(setting, bool) else repr(setting)

    return ", ".join(f"{k}={value(k, v)}" for k, v in settings.items()) or "the agent's own"


def _prompt_lines(run: dict[str, Any], agent: str, use: dict[str, Any] | None) -> list[str]:
    suite = run["suite"]
    prompts, variants = suite.get("prompts") or {}, suite.get("variants") or {}
    if not prompts and not variants:
        return []
    lines = ["Prompt settings (for agents that build prompts):"]
    for env_id, settings in prompts.items():
        lines.append(f"- {env_id}: {_settings_text(settings)}")
    for name, settings in variants.items():
        lines.append(f"- variant `{name}`: {_settings_text(settings)}")
    if use and use["ignored"] and not use["applied"]:
        lines.append(f"\n{agent} takes no prompts: it played without these settings"
                     + (", so its variants played alike." if variants else "."))  # fmt: skip
    elif use and use["ignored"]:
        lines.append(f"\n{use['ignored']} episodes played without them (agent takes no prompts).")
    return [*lines, ""]


def report_markdown(
    run: dict[str, Any],
    rows: list[dict[str, Any]],
    ratings: dict[str, Any] | None = None,
    prompts_used: dict[str, Any] | None = None,
) -> str:
    """The run's report (see the module docstring)."""
    suite, agent = run["suite"], run["agent"]["spec"]
    lines = [f"# {agent} on the {suite['name']} suite (v{suite['version']})", "",
             f"Suite hash `{suite['hash'][:16]}`, {suite['episodes']} episodes; "
             f"agentgym {run['provenance'].get('agentgym_version')}, "
             f"commit {run['provenance'].get('git_commit')}, {run['provenance'].get('device')}.",
             ""]  # fmt: skip
    lines += _prompt_lines(run, agent, prompts_used)
    order = {name: i for i, name in enumerate(suite.get("variants") or {})}
    for env_id in dict.fromkeys(r["env_id"] for r in rows):
        mine = [r for r in rows if r["env_id"] == env_id]
        lines += _env_table(env_id, mine, order)
    if ratings:
        means = ", ".join(f"{d} {ratings[d]:.2f}" for d in DIMENSIONS)
        lines += ["## People's ratings", "",
                  f"{ratings['rated_episodes']} episodes rated (`agentgym inspect`), mean of 5: "
                  f"{means}.", ""]  # fmt: skip
    return "\n".join(lines)


def _env_table(env_id: str, mine: list[dict[str, Any]], order: dict[str, int]) -> list[str]:
    with_variants = any(r.get("variant") for r in mine)
    rules = sorted({name for r in mine for name in r.get("rule_violation_rates") or {}})
    if with_variants:  # each cell's variants side by side
        difficulties = list(dict.fromkeys(r["difficulty"] for r in mine))
        splits = list(dict.fromkeys(r["split"] for r in mine))

        def place(row: dict[str, Any]) -> tuple[int, int, int]:
            variant = order.get(row.get("variant", ""), len(order))
            return difficulties.index(row["difficulty"]), splits.index(row["split"]), variant

        mine = sorted(mine, key=place)
    head = ["difficulty", "split", *(["variant"] if with_variants else []), "episodes",
            "success (95% CI)", "mean score", "mean steps", "invalid actions",
            "admissible actions", *(f"{name} violations" for name in rules), "errors"]  # fmt: skip
    lines = [f"## {env_id}", "", "| " + " | ".join(head) + " |",
             "|---|---|" + ("---|" if with_variants else "") + "---:|" * (len(head) - 2
             - with_variants)]  # fmt: skip
    for r in mine:
        rates = r.get("rule_violation_rates") or {}
        cells = (r["difficulty"], r["split"], *([r.get("variant", "")] if with_variants else []),
                 str(r["episodes"]), _percent(r), f"{r['mean_score']:.3f}",
                 f"{r['mean_steps']:.1f}", _share(r.get("invalid_action_rate")),
                 _share(r.get("admissible_rate")), *(_share(rates.get(n)) for n in rules),
                 str(r["errors"]))  # fmt: skip
        lines.append("| " + " | ".join(cells) + " |")
    if rules:
        lines += ["", "Rule checks (share of the episodes checked that broke the rule): "
                  + ", ".join(f"`{n}`" for n in rules) + "."]  # fmt: skip
    shown = [s for s in HELD_OUT if any(r["split"] == s for r in mine)]
    label = "difficulty | variant" if with_variants else "difficulty"
    lines += ["", "Generalization gap (success):", "",
              f"| {label} | " + " | ".join(shown) + " |",
              "|---|" + ("---|" if with_variants else "") + "---:|" * len(shown)]  # fmt: skip
    groups = dict.fromkeys((r["difficulty"], r.get("variant", "")) for r in mine)
    for difficulty, variant in groups:
        by_split = {
            r["split"]: r
            for r in mine
            if r["difficulty"] == difficulty and r.get("variant", "") == variant
        }
        gap = [f"{100 * by_split[s]['success_rate']:.1f}%" if s in by_split else "–"
               for s in shown]  # fmt: skip
        first = f"{difficulty} | {variant}" if with_variants else difficulty
        lines.append(f"| {first} | " + " | ".join(gap) + " |")
    lines.append("")
    return lines


def comparison_markdown(suite: str, version: int, rows: list[dict[str, Any]]) -> str:
    """Several agents' summary rows (each with its ``agent``) side by side: success (95% CI)
    per env x difficulty x split, an agent per column."""
    agents = list(dict.fromkeys(r["agent"] for r in rows))
    by_cell: dict[tuple, dict[str, dict[str, Any]]] = {}
    for r in rows:
        by_cell.setdefault((r["env_id"], r["difficulty"], r["split"]), {})[r["agent"]] = r
    lines = [f"# Baselines on the {suite} suite (v{version})", "", "Success (95% CI) per "
             "env x difficulty x split; each agent's run folder has its full report.", "",
             "| env | difficulty | split | " + " | ".join(agents) + " |",
             "|---|---|---|" + "---:|" * len(agents)]  # fmt: skip
    for (env_id, difficulty, split), cell in by_cell.items():
        cells = [_percent(cell[a]) if a in cell else "–" for a in agents]
        lines.append(f"| {env_id} | {difficulty} | {split} | " + " | ".join(cells) + " |")
    return "\n".join([*lines, ""])


__all__ = ["comparison_markdown", "prompt_use", "report_markdown"]
