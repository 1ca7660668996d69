"""Adversarial task sentences: the same goal, paraphrased and padded with distracting (true) text.

The wording here is our own. Padding never lies about the world: it names the decoy classes that
the generator put in the house and adds irrelevant remarks, so a careful agent can still succeed.
Sentences avoid ``#``, ``{``, ``}``, ``[`` and ``]``, which the TextWorld grammar would interpret.
"""

from __future__ import annotations

import random

_PARAPHRASES: dict[str, tuple[str, ...]] = {
    "pick_and_place_simple": (
        "make sure that a {obj} ends up in the {recep}",
        "find a {obj} somewhere here and leave it in the {recep}",
        "the {recep} should get a {obj}; bring one there",
    ),
    "look_at_obj_in_light": (
        "take a {obj} and look at it in the light of the {toggle}",
        "inspect a {obj} while the {toggle} is switched on next to you",
        "hold a {obj} up under a lit {toggle}",
    ),
    "pick_clean_then_place_in_recep": (
        "wash a {obj} and then leave it in the {recep}",
        "the {recep} needs a {obj} that has been cleaned first",
        "rinse off a {obj}, then put it away in the {recep}",
    ),
    "pick_heat_then_place_in_recep": (
        "warm up a {obj} and then leave it in the {recep}",
        "the {recep} needs a {obj} that has been heated first",
        "make a {obj} hot, then place it in the {recep}",
    ),
    "pick_cool_then_place_in_recep": (
        "chill a {obj} and then leave it in the {recep}",
        "the {recep} needs a {obj} that has been cooled first",
        "make a {obj} cold, then place it in the {recep}",
    ),
    "pick_two_obj_and_place": (
        "gather a pair of {obj}s and leave both in the {recep}",
        "the {recep} should end up holding two {obj}s",
        "collect two {obj}s and put them together in the {recep}",
    ),
}

_DECOY_NOTES = (
    "Careful: the {decoy} is not what you need.",
    "You may notice a {decoy} or two; ignore them.",
    "A {decoy} is not a {obj}.",
)
_NOISE = (
    "The family is coming home soon.",
    "Someone left the lights on this morning.",
    "Take your time, nothing here is fragile.",
    "Yesterday the house was cleaned.",
)


def rewrite_sentence(
    rng: random.Random,
    task_type: str,
    obj: str,
    dest: str | None,
    toggle: str | None,
    decoys: tuple[str, ...],
) -> str:
    """A paraphrased, padded version of the task sentence for ``task_type``."""
    names = {"obj": obj.lower(), "recep": (dest or "").lower(), "toggle": (toggle or "").lower()}
    core = rng.choice(_PARAPHRASES[task_type]).format(**names)
    padding = [rng.choice(_NOISE)]
    for decoy in decoys:
        padding.append(rng.choice(_DECOY_NOTES).format(decoy=decoy.lower(), obj=names["obj"]))
    rng.shuffle(padding)
    if rng.random() < 0.5:
        return " ".join(padding) + " Your job: " + core
    return core + ". " + " ".join(padding).rstrip(".")
