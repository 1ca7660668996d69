"""ALFWorld's display names for PDDL entities (``apple_bar__plus_01...`` -> ``apple 2``).

Same rule as ALFWorld's demangler without shuffling, so that our games read exactly like theirs:
the class name is the part before the first ``_bar_`` (``...basin`` ids keep the ``basin``), and the
instances of a class, taken in sorted id order, are numbered from the highest number down to 1.
"""

from __future__ import annotations

from collections import Counter

_UNMANGLE = (("_bar_", "|"), ("_minus_", "-"), ("_plus_", "+"), ("_dot_", "."), ("_comma_", ","))


def _class_name(entity_id: str) -> str | None:
    head, sep, _ = entity_id.partition("_bar_")
    if not sep:
        return None
    return head + "basin" if "basin" in entity_id else head


def alfred_names(entity_ids: list[str]) -> dict[str, str]:
    """Map every entity id to the name ALFWorld shows for it."""
    ids = sorted(entity_ids)
    counts = Counter(name for name in map(_class_name, ids) if name is not None)
    remaining = {name: count for name, count in counts.items()}
    names = {}
    for entity_id in ids:
        name = _class_name(entity_id)
        if name is None:
            text = entity_id
            for mangled, raw in _UNMANGLE:
                text = text.replace(mangled, raw)
            names[entity_id] = f"{text} "
        else:
            names[entity_id] = f"{name} {remaining[name]}"
            remaining[name] -= 1
    return names
