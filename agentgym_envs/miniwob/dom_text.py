"""Render the page snapshot (see ``page_js.SNAPSHOT``) as compact text for an LLM.

One line per visible element that matters: controls, text-bearing elements, leaf boxes and SVG
shapes; pure layout wrappers are folded away so the indentation shows the grouping that remains.

    [4] button "Submit"
    [5] input type=text value="abc" focused
    [6] input type=checkbox checked
    "free text between elements"

The ``text_bbox`` observation mode adds each element's box, ``[4] button "Submit" @12,80,40,22``
(x, y, width, height in page CSS pixels, rounded).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agentgym_envs.miniwob.actions import quote

Node = dict[str, Any]
_SCROLL_ROOTS = {"body", "html"}


def render_node(node: Node, boxes: bool = False) -> str:
    """One element as ``[id] tag "text" key=value flags``, and with ``boxes`` its box
    ``@x,y,w,h`` (page CSS pixels) when the snapshot measured one."""
    if node["tag"] == "#text":
        return quote(node["text"])
    line = _render_element(node)
    if boxes and node.get("box"):
        line += " @" + ",".join(str(v) for v in node["box"])
    return line


def _render_element(node: Node) -> str:
    parts = [f"[{node['id']}]", _label(node)]
    if node.get("text"):
        parts.append(quote(node["text"]))
    if "value" in node:
        parts.append(f"value={quote(str(node['value']))}")
    if "options" in node:
        parts.append("options=[" + ", ".join(quote(o) for o in node["options"]) + "]")
    if node.get("placeholder"):
        parts.append(f"placeholder={quote(node['placeholder'])}")
    for key in ("title", "aria"):
        if node.get(key):
            parts.append(f"{key}={quote(node[key])}")
    if not node.get("text") and node.get("cls"):
        parts.append(f"class={quote(node['cls'])}")
    if node.get("color"):
        parts.append(f"color={node['color'].replace(' ', '')}")
    if node.get("size"):
        parts.append(f"size={node['size']}")
    if node.get("checked"):
        parts.append("checked")
    if node.get("disabled"):
        parts.append("disabled")
    if node.get("focused"):
        parts.append("focused")
    if "scroll" in node:
        top, most = node["scroll"]
        parts.append(f"scrollable({top}/{most}px)")
    return " ".join(parts)


def _label(node: Node) -> str:
    tag = node["tag"]
    label = f"input type={node.get('type', 'text')}" if tag == "input" else tag
    if node.get("htmlId") and not node.get("text"):
        label += f" #{node['htmlId']}"
    return label


def render_dom(nodes: Sequence[Node], boxes: bool = False) -> str:
    """The whole snapshot, two spaces of indentation per folded depth level."""
    lines = []
    for node in nodes:
        if node["tag"] == "body":
            continue
        depth = node["depth"]
        lines.append("  " * depth + render_node(node, boxes))
    return "\n".join(lines)


def render_observation(
    goal: str, nodes: Sequence[Node], note: str = "", boxes: bool = False
) -> str:
    """The observation text: instruction, optional note (e.g. the result), then the page
    (with ``boxes``, each element's box ``@x,y,w,h``)."""
    text = f"Task: {goal}\n"
    if note:
        text += f"{note}\n"
    return text + "Page:\n" + render_dom(nodes, boxes)


def node_ids(nodes: Sequence[Node]) -> list[int]:
    return [n["id"] for n in nodes if "id" in n]


def scrollable_ids(nodes: Sequence[Node]) -> list[int]:
    return [n["id"] for n in nodes if "scroll" in n or n.get("tag") in _SCROLL_ROOTS]


def select_nodes(nodes: Sequence[Node]) -> list[Node]:
    return [n for n in nodes if n.get("tag") == "select"]


KEYS_OFFERED = ('press "Enter"', 'press "Tab"')


def admissible_actions(nodes: Sequence[Node]) -> list[str]:
    """The enumerable actions on this snapshot (typing is open-ended and not listed); disabled
    elements refuse clicks and selections, so they are left out."""
    enabled = [n for n in nodes if not n.get("disabled")]
    actions = [f"click [{i}]" for i in node_ids(enabled)]
    for node in select_nodes(enabled):
        actions += [f"select [{node['id']}] {quote(o)}" for o in node.get("options", [])]
    for element in scrollable_ids(nodes):
        actions += [f"scroll [{element}] {where}" for where in ("up", "down", "top", "bottom")]
    return actions + list(KEYS_OFFERED) + ["noop"]
