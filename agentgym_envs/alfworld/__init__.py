"""ALFWorld households, generated offline and played through TextWorld's PDDL engine.

``ALFWorldEnv`` (``agentgym_envs.alfworld.env``) plays games written for ALFWorld's own PDDL
domain (``alfred.pddl``) and grammar (``alfred.twl2``) from the ``alfworld`` wheel; the games
themselves are generated here, because ALFWorld's per-task games are download-only.

Difficulties (``generator.PROFILES``)
    easy:   Kitchen FloorPlans only; the layout's receptacles subsampled to 5-8 (always a
            destination and an open surface that can hold the target); pick_and_place only;
            every copy of the target starts on an open (non-openable) receptacle; 2-4 distractor
            classes, one copy each.
    medium: all four room types with ALFWorld's full FloorPlan receptacle lists (3-47, about 15 on
            average); all six task types, equally likely; the room is then drawn among those
            ALFWorld allows for the type (``GOALS_VALID``: heat/cool in kitchens, clean in
            kitchens/bathrooms, look in living rooms/bedrooms); 4-10 distractor classes with 1-3
            copies each.
    hard:   as medium, but the house is padded with extra receptacles of the layout's own kinds to
            at least 25; the first copy of the target starts inside a closed container when any
            can hold it; 8-14 distractor classes with 2-3 copies each; pick_two_obj_and_place and
            look_at_obj_in_light have twice the weight of the other types.
    In every house targets never start in a receptacle of the destination's class (nor in the
    task's appliance), lamps stand on open surfaces, and the agent starts away from every
    receptacle ("You are in the middle of a room").

Splits (``splits.SPLIT_SIZES``: train 3,553 / valid 140 / test 140 / ood 134 / adversarial 140)
    train/valid/test: seen FloorPlans (all but ALFWorld's TEST_SCENE_NUMBERS) and object x task
            pairings that are not held out; the three draw from disjoint seed streams
            (``<difficulty>:<split>:<index>:<attempt>``), like ALFWorld's train / valid_seen.
    ood:    ALFWorld's unseen FloorPlans (1-6, 201-206, 301-306, 401-406) *and* held-out object x
            task pairings (``generator.is_held_out_pair``: CRC32 of "task:Object" divisible by 5),
            neither of which train/valid/test ever uses (like valid_unseen).
    adversarial: seen layouts, but the task sentence is paraphrased and padded with distracting
            (true) remarks, and the house holds two copies of each near-identical class of the
            target (Mug/Cup, Pen/Pencil, Knife/ButterKnife, ...), one of them in the target's own
            receptacle when it fits there; the PDDL goal is unchanged.
    Games are generated lazily and cached (see ``games``); the task lists are fixed.

Task sentences follow ALFWorld's goal library templates (``put a {obj} in {recep}``, ...).
The six task types use ALFWorld's names (``household.TASK_TYPES``).

Deliberate deviations from ALFWorld
    - Commands are those of the 0.4.2 grammar (``move X to Y``); ``put X in/on Y`` (older ALFWorld
      wording) is accepted as an alias for the admissible ``move X to Y``.
    - The oracle (``info["expert_action"]``) follows the stored walkthrough while the agent does
      and replans after a deviation that changes the world. Walkthroughs and replans come from a
      task-aware planner over the true facts (``expert``), not fast-downward, whose search took
      50-250 s on ALFWorld-sized pick_two houses; every walkthrough is replayed through the PDDL
      engine at build time. ``GameEngine.plan()`` still gives fast-downward's plan on demand.
    - One location per receptacle (ALFWorld sometimes shares one between receptacles).
    - Movable-receptacle and sliced variants of the tasks are not generated (ALFWorld's text
      games skip them too).
"""

from __future__ import annotations

__all__ = ["ALFWorldEnv"]


def __getattr__(name: str):  # lazy: importing the package must not import TextWorld
    if name == "ALFWorldEnv":
        from agentgym_envs.alfworld.env import ALFWorldEnv

        return ALFWorldEnv
    raise AttributeError(name)
