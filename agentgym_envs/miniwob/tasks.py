"""The MiniWoB++ task table: every task the ``miniwob`` 1.1.0 package ships, with its tier.

Import-light on purpose (no Playwright, no ``miniwob`` import): the registration table reads it.
Each task is ``iid`` (train/valid/test/adversarial of ``AgentGym/MiniWoB-v0``), ``ood`` (held out of
those lists: variant transfer such as click-checkboxes -> -large/-soft/-transfer, and held-out
families), or excluded with the reason it cannot be played here (real-time pointer tracking, the
airline sites). The pointer tasks (drag and drop, drawing, text selection, clicks at computed
coordinates) are played with the pointer actions of ``actions.py`` (click_xy, drag, select_text,
draw); ``NO_ORACLE`` lists the registered tasks without a scripted expert, and why. The ood
split also plays, in MiniWoB's test data mode, the iid tasks whose page has one
(``TEST_MODE_TASKS``); a one-task env serves only its task's splits (``task_splits``: a held-out
task is ood only).

``fresh`` marks tasks whose page state leaks across episodes (Farama flags most of them
nondeterministic; form-sequence-3's dropdown keeps a document click handler from an episode that
ended with its list open, so the same click opened the list or not by what the page played
before): we reload their page every episode, which makes them deterministic.
``clock`` marks tasks whose page shows today's date (terminal's "Last login" line): their
episodes are built with the clock frozen at ``FROZEN_NOW`` (a deliberate deviation from Farama,
whose page shows the real date), so a seed shows the same page on every day.
Pages run on virtual time (the ``clock`` module): their timers, animations and clock advance
only as the driver lets page time pass (after an action, until the page is idle; ``wait N`` N
seconds), so tasks that once depended on the machine's speed play the same on every machine:
terminal's input focused 200 ms after the start, click-pie's wheel growing for ~1.5 s,
social-media's feed built after a delay, text-editor's toolbar following the selection from
timers, and the tasks that follow the clock by design (button-delay scores the delay between two
presses, stock-market's price ticks every 100 ms, drag-cube's cube turns with the pointer's
momentum).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentgym_envs.core.splits import DIFFICULTIES

#: a task's tier is its difficulty
TIERS = DIFFICULTIES
#: The instant ``clock`` tasks see while their episode is built: 2017-01-01 12:00 UTC.
FROZEN_NOW_MS = 1_483_272_000_000

# name | tier | role (iid / ood / excluded) | flags | exclusion reason
_TABLE = """
click-test | easy | iid | |
click-test-2 | easy | iid | |
click-test-transfer | easy | ood | |
click-button | easy | iid | |
click-link | easy | iid | |
click-dialog | easy | iid | fresh |
click-dialog-2 | easy | iid | fresh |
click-widget | easy | iid | |
click-color | easy | iid | |
click-tab | easy | iid | |
click-collapsible | easy | iid | |
click-collapsible-nodelay | easy | iid | |
button-delay | easy | iid | |
enter-text | easy | iid | |
enter-text-2 | easy | ood | |
enter-text-dynamic | easy | iid | |
enter-password | easy | iid | |
focus-text | easy | iid | |
focus-text-2 | easy | iid | |
unicode-test | easy | ood | |
simple-arithmetic | easy | iid | |
odd-or-even | easy | iid | |
click-button-sequence | medium | iid | |
click-checkboxes | medium | iid | |
click-checkboxes-soft | medium | ood | |
click-checkboxes-transfer | medium | ood | |
click-collapsible-2 | medium | iid | |
click-collapsible-2-nodelay | medium | iid | |
click-tab-2 | medium | iid | |
click-tab-2-easy | medium | iid | |
click-tab-2-medium | medium | ood | |
click-option | medium | iid | |
click-menu | medium | iid | |
click-menu-2 | medium | iid | |
click-pie | medium | iid | fresh |
click-pie-nodelay | medium | iid | fresh |
click-scroll-list | medium | iid | fresh |
click-shape | medium | iid | |
choose-list | medium | iid | |
choose-date-easy | medium | iid | fresh |
login-user | medium | iid | |
login-user-popup | medium | iid | |
enter-date | medium | iid | |
enter-time | medium | iid | |
copy-paste | medium | iid | |
copy-paste-2 | medium | iid | |
find-word | medium | iid | |
find-greatest | medium | iid | |
identify-shape | medium | iid | |
count-shape | medium | iid | |
visual-addition | medium | iid | |
multi-layouts | medium | iid | |
multi-orderings | medium | ood | |
navigate-tree | medium | ood | |
read-table | medium | iid | |
read-table-2 | medium | iid | |
scroll-text | medium | iid | fresh |
scroll-text-2 | medium | iid | fresh |
simple-algebra | medium | iid | |
text-transform | medium | iid | |
use-autocomplete | medium | iid | |
use-autocomplete-nodelay | medium | iid | |
use-spinner | medium | iid | |
guess-number | medium | iid | |
generate-number | medium | iid | |
ascending-numbers | medium | iid | |
sign-agreement | medium | iid | |
form-sequence | medium | iid | |
tic-tac-toe | medium | iid | |
book-flight | hard | iid | fresh |
book-flight-nodelay | hard | ood | fresh |
choose-date | hard | iid | fresh |
choose-date-medium | hard | iid | fresh |
choose-date-nodelay | hard | iid | fresh |
click-checkboxes-large | hard | ood | |
click-shades | hard | iid | |
click-tab-2-hard | hard | ood | |
email-inbox | hard | iid | |
email-inbox-delete | hard | iid | |
email-inbox-forward | hard | iid | |
email-inbox-forward-nl | hard | iid | |
email-inbox-forward-nl-turk | hard | ood | |
email-inbox-important | hard | iid | |
email-inbox-nl-turk | hard | ood | |
email-inbox-noscroll | hard | iid | |
email-inbox-reply | hard | iid | |
email-inbox-star-reply | hard | iid | |
search-engine | hard | iid | fresh |
social-media | hard | iid | fresh |
social-media-all | hard | iid | fresh |
social-media-some | hard | ood | fresh |
terminal | hard | ood | fresh clock |
use-slider | hard | iid | |
use-slider-2 | hard | iid | |
daily-calendar | hard | iid | |
form-sequence-2 | hard | iid | |
form-sequence-3 | hard | iid | fresh |
order-food | hard | iid | fresh |
phone-book | hard | iid | fresh |
buy-ticket | hard | iid | |
stock-market | hard | iid | fresh |
grid-coordinate | hard | iid | |
use-colorwheel | hard | iid | fresh |
text-editor | hard | ood | |
number-checkboxes | medium | ood | |
hot-cold | medium | iid | |
bisect-angle | hard | ood | |
circle-center | hard | iid | |
find-midpoint | hard | iid | |
right-angle | hard | iid | |
use-colorwheel-2 | hard | ood | fresh |
count-sides | hard | ood | |
draw-circle | hard | ood | |
draw-line | hard | iid | |
drag-box | hard | iid | |
drag-circle | hard | iid | |
drag-cube | hard | ood | |
drag-items | hard | iid | |
drag-items-grid | hard | ood | |
drag-shapes | hard | iid | |
drag-shapes-2 | hard | ood | |
drag-single-shape | hard | iid | |
drag-sort-numbers | hard | iid | |
resize-textarea | hard | iid | |
highlight-text | hard | iid | |
highlight-text-2 | hard | ood | |
hover-shape | hard | excluded | | keeps the pointer on a moving square (not in Farama's registry)
chase-circle | hard | excluded | | needs real-time pointer tracking (not in Farama's registry)
moving-items | hard | excluded | | needs clicks timed on moving targets (not in Farama's registry)
simon-says | hard | excluded | | needs watching a flashing animation (not in Farama's registry)
flight.AA | hard | excluded | | airline site in an iframe; HTTP only; nondeterministic
flight.Alaska | hard | excluded | | airline site in an iframe; HTTP only; nondeterministic
flight.Alaska-auto | hard | excluded | | airline site in an iframe; HTTP only; nondeterministic
flight.Alaska-auto-medium | hard | excluded | | airline site in an iframe; HTTP only; not registered
"""


@dataclass(frozen=True)
class TaskSpec:
    """One MiniWoB++ task: its tier, its role in the splits, and why it is excluded if it is."""

    name: str
    tier: str
    role: str  # "iid", "ood" or "excluded"
    fresh_page: bool = False
    excluded_reason: str = ""
    clock: bool = False  # the page shows today's date: episodes are built with the date frozen

    @property
    def text_actionable(self) -> bool:
        return self.role != "excluded"

    @property
    def env_id(self) -> str:
        return f"AgentGym/MiniWoB-{self.name}-v0"


def _parse(table: str) -> dict[str, TaskSpec]:
    specs: dict[str, TaskSpec] = {}
    for line in table.strip().splitlines():
        name, tier, role, flags, reason = (part.strip() for part in line.split("|"))
        assert tier in TIERS and role in ("iid", "ood", "excluded"), line
        specs[name] = TaskSpec(
            name, tier, role, fresh_page="fresh" in flags.split(), excluded_reason=reason,
            clock="clock" in flags.split(),
        )  # fmt: skip
    return specs


TASKS: dict[str, TaskSpec] = _parse(_TABLE)
#: Tasks registered as ``AgentGym/MiniWoB-<task>-v0`` (every text-actionable one).
TEXT_TASKS: tuple[str, ...] = tuple(n for n, s in TASKS.items() if s.text_actionable)
EXCLUDED: dict[str, str] = {n: s.excluded_reason for n, s in TASKS.items() if not s.text_actionable}

#: Step budgets by tier (MiniWoB tasks take 1-3 actions for easy, up to ~15 for inbox/booking).
MAX_STEPS = {"easy": 10, "medium": 20, "hard": 40}


#: Tasks whose page draws from MiniWoB's own test distribution in data mode 'test'
#: (``WOB_DATA_MODE == 'test'`` in their HTML): click-test-transfer asks for button TWO,
#: click-checkboxes-transfer for 4-6 boxes instead of 0-3, the email-inbox natural-language
#: tasks phrase requests with held-out templates.
TEST_MODE_TASKS = frozenset(
    {
        "click-test-transfer",
        "click-checkboxes-transfer",
        "email-inbox-forward-nl",
        "email-inbox-forward-nl-turk",
        "email-inbox-nl-turk",
    }
)
IID_SPLITS = ("train", "valid", "test", "adversarial")

#: Registered tasks whose episodes cannot be replayed because they follow the wall clock (replay
#: checks skip them), with the reason. None: pages run on virtual time, so button-delay's delay,
#: stock-market's ticks and drag-cube's momentum follow page time, the same on every replay.
REAL_TIME_TASKS: dict[str, str] = {}

#: Tasks whose raw reward falls with the distance (pixels or degrees) from an exact point: mouse
#: events carry whole CSS pixels, so the best reachable raw reward is usually just below 1 (their
#: oracles score 0.97-0.9999), which Farama's success rule (raw == 1) does not count as success;
#: ``success_rule="browsergym"`` (raw > 0) does.
PIXEL_SCORED: dict[str, str] = {
    "circle-center": "scores (r - d) / r for the distance d of the click from the circle's centre",
    "find-midpoint": "scores (30 - d) / 30 for the distance d of the click from the midpoint",
    "right-angle": "scores (90 - e) / 90 for the angle error e in degrees",
    "bisect-angle": "scores how evenly the click splits the angle",
}

#: Registered tasks without an oracle (``oracles.ORACLES``), and why. Agents can still play them
#: (count-sides from the screenshot in ``info["screenshot"]``, drag-cube by dragging and looking).
NO_ORACLE: dict[str, str] = {
    "count-sides": "the polygon exists only as canvas pixels (its side count is a local variable "
    "of the page script), so only a screenshot shows it",
    "drag-cube": "a drag turns the cube by the pointer's momentum (integrated at 20 frames a "
    "second of page time): which face a drag shows is deterministic, but no script maps a wanted "
    "face to a drag yet",
}


def data_mode(split: str) -> str:
    """MiniWoB's data mode for ``split``: the ood split plays its test distributions."""
    return "test" if split == "ood" else "train"


def task_splits(name: str) -> tuple[str, ...]:
    """The splits task ``name`` serves: a held-out task only ood (training on it would leak the
    OOD evaluation); an iid task the i.i.d. splits, plus ood when its page has a test mode."""
    spec = task_spec(name)
    if spec.role == "ood":
        return ("ood",)
    return (*IID_SPLITS, "ood") if name in TEST_MODE_TASKS else IID_SPLITS


def default_split(name: str | None) -> str:
    """The split an env plays when none is given: a held-out task's is ood, otherwise train."""
    return task_splits(name)[0] if name is not None else "train"


def check_task_split(name: str, split: str) -> str:
    """``split`` if task ``name`` serves it; ValueError saying which splits it serves."""
    allowed = task_splits(name)
    if split not in allowed:
        why = (
            "it is held out for out-of-distribution evaluation"
            if TASKS[name].role == "ood"
            else "it is an in-distribution task without a MiniWoB test mode"
        )
        raise ValueError(
            f"MiniWoB task {name!r} is not in split {split!r}: {why}; "
            f"its splits: {', '.join(allowed)}"
        )
    return split


def tier_tasks(tier: str, split: str) -> list[str]:
    """Task names of ``tier`` in ``split``: ood -> the held-out tasks and the iid tasks with a
    test mode (played in it); other splits -> the iid ones."""
    return sorted(n for n, s in TASKS.items() if s.tier == tier and split in _splits_of(s))


def _splits_of(spec: TaskSpec) -> tuple[str, ...]:
    return task_splits(spec.name) if spec.text_actionable else ()


def task_spec(name: str) -> TaskSpec:
    """The spec of ``name``; ValueError naming the valid tasks (or the exclusion reason)."""
    spec = TASKS.get(name)
    if spec is None:
        raise ValueError(
            f"unknown MiniWoB task {name!r}; known text tasks: {', '.join(sorted(TEXT_TASKS))}"
        )
    if not spec.text_actionable:
        raise ValueError(f"MiniWoB task {name!r} is excluded: {spec.excluded_reason}")
    return spec


def html_root() -> Path:
    """``miniwob/html`` inside the installed package, found without importing ``miniwob``."""
    spec = importlib.util.find_spec("miniwob")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(
            "the `miniwob` package is not installed: `pip install --no-deps miniwob==1.1.0` "
            "(only its HTML is used; Selenium is not needed)"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "html"


def miniwob_version() -> str:
    """The installed ``miniwob`` package's version (its HTML is what episodes play)."""
    from importlib import metadata

    try:
        return metadata.version("miniwob")
    except metadata.PackageNotFoundError:
        return "missing"


def task_url(name: str) -> str:
    """file:// URL of the task's HTML page."""
    path = html_root() / "miniwob" / f"{name}.html"
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing; reinstall miniwob==1.1.0")
    return path.as_uri()


def registration_entries() -> list[dict[str, Any]]:
    """Registry rows for the lead's table: the tier env plus one env per text-actionable task."""
    entry = "agentgym_envs.miniwob.env:MiniWoBEnv"
    rows: list[dict[str, Any]] = [
        {"id": "AgentGym/MiniWoB-v0", "entry_point": entry, "max_episode_steps": 40, "kwargs": {}}
    ]
    for name in TEXT_TASKS:
        spec = TASKS[name]
        rows.append(
            {
                "id": spec.env_id,
                "entry_point": entry,
                "max_episode_steps": MAX_STEPS[spec.tier],
                "kwargs": {"task": name},
                "difficulties": (spec.tier,),
                "splits": task_splits(name),
            }
        )
    return rows
