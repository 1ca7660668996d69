"""Write a ``Household`` as a PDDL problem for ALFWorld's domain and as a ``game.tw-pddl`` dict.

The problem follows the shape of ALFWorld's own generated games: ``agent1``, type constants,
one location per receptacle plus the agent's start, and the facts ``atLocation``,
``receptacleAtLocation``, ``inReceptacle``, ``objectAtLocation``, ``openable``, ``pickupable``,
``cleanable``, ``heatable``, ``coolable``, ``toggleable``, ``sliceable``, ``receptacleType``,
``objectType`` and ``canContain``. The goal is the goal library's PDDL for the task type.
"""

from __future__ import annotations

from typing import Any

from agentgym_envs.alfworld import assets
from agentgym_envs.alfworld.household import Household, mangle

#: Types the domain's actions name as constants; every problem must declare them.
_DOMAIN_RTYPES = ("SinkBasinType", "MicrowaveType", "FridgeType")
_DOMAIN_OTYPES = ("KnifeType", "ButterKnifeType")


def goal_pddl(house: Household) -> str:
    """The goal library's ``(:goal ...)`` block (it also closes the ``define``)."""
    task = house.task
    text = str(assets.goal_library()[task.task_type]["pddl"])
    text = text.format(
        obj=task.object_class, recep=task.receptacle_class or "", toggle=task.toggle_class or ""
    )
    return text.replace("#", "-")


def problem_pddl(house: Household, name: str) -> str:
    t = assets.tables()
    receptacles = {r.entity_id: r for r in house.receptacles}
    rtypes = sorted({r.kind + "Type" for r in house.receptacles} | set(_DOMAIN_RTYPES))
    otypes = sorted({i.kind + "Type" for i in house.items} | set(_DOMAIN_OTYPES))
    locations = sorted({r.location for r in house.receptacles} | {house.agent_location})

    objects = ["agent1 - agent"]
    objects += [f"{k} - rtype" for k in rtypes]
    objects += [f"{k} - otype" for k in otypes]
    objects += [f"{mangle(i.entity_id)} - object" for i in house.items]
    objects += [f"{mangle(r.entity_id)} - receptacle" for r in house.receptacles]
    objects += [f"{mangle(loc)} - location" for loc in locations]

    facts = [f"(atLocation agent1 {mangle(house.agent_location)})"]
    for r in house.receptacles:
        rid = mangle(r.entity_id)
        facts.append(f"(receptacleType {rid} {r.kind}Type)")
        facts.append(f"(receptacleAtLocation {rid} {mangle(r.location)})")
        if r.openable:
            facts.append(f"(openable {rid})")
    for i in house.items:
        oid = mangle(i.entity_id)
        home = receptacles[i.receptacle]
        facts.append(f"(objectType {oid} {i.kind}Type)")
        facts.append(f"(inReceptacle {oid} {mangle(home.entity_id)})")
        facts.append(f"(objectAtLocation {oid} {mangle(home.location)})")
        properties = (
            ("pickupable", t.pickupable),
            ("cleanable", t.cleanable),
            ("heatable", t.heatable),
            ("coolable", t.coolable),
            ("toggleable", t.toggleable),
            ("sliceable", t.sliceable),
        )
        facts += [f"({prop} {oid})" for prop, kinds in properties if i.kind in kinds]
    item_kinds = {i.kind for i in house.items}
    for rkind in sorted({r.kind for r in house.receptacles}):
        for okind in sorted(item_kinds & t.can_contain.get(rkind, frozenset())):
            facts.append(f"(canContain {rkind}Type {okind}Type)")

    lines = [f"(define (problem {name})", "(:domain alfred)", "(:objects"]
    lines += ["    " + o for o in objects]
    lines += [")", "(:init"]
    lines += ["    " + f for f in facts]
    lines += [")", goal_pddl(house)]
    return "\n".join(lines) + "\n"


def game_json(house: Household, name: str, walkthrough: list[str] | None = None) -> dict[str, Any]:
    """The ``game.tw-pddl`` content that TextWorld's ``PddlEnv`` (and ALFWorld) load."""
    return {
        "pddl_domain": assets.domain_text(),
        "grammar": assets.grammar_text().replace("UNKNOWN GOAL", house.task.sentence),
        "pddl_problem": problem_pddl(house, name),
        "solvable": walkthrough is not None,
        "walkthrough": list(walkthrough or []),
    }
