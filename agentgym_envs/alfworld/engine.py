"""A cached front end to TextWorld's PDDL engine, byte-identical to ``textworld.envs.pddl.PddlEnv``.

Stock ``PddlEnv`` re-parses the grammar, re-translates the PDDL and derives the text of every
admissible command through the grammar on every step. Here:

- the grammar (``alfred.twl2``) is parsed once per process; a game only re-parses its task line;
- PDDL -> SAS translations are cached per (domain, problem) in memory (and on disk by ``games``);
- the text of a command depends only on the grounded action (its name and arguments) because
  command templates only query *static* predicates (no action changes them). ``GameEngine``
  checks that when it loads a game and then caches each grounded action's command text;
- the intro text and initial state of a game are cached (a reset always starts from the same
  state), and an engine keeps its most recent games, so switching back is as cheap as a reset;
- the derivation of feedback text uses ``derivation`` (cached parses, no deep copies);
- fast-downward library copies are pooled and reused across resets, games and engines.

TextWorld's loading path overwrites ``sys.argv`` and swaps ``sys.stdout``; ``isolated`` restores
both (and serialises the global translator options) so nothing leaks into the caller.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
import sys
import threading
from collections import Counter, OrderedDict, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import fast_downward
import textworld
from textworld.envs.pddl import logic as pddl_logic
from textworld.envs.pddl.textgen import ContextSensitiveGrammar
from textworld.generator.game import EntityInfo
from textworld.logic import Placeholder, Variable

from agentgym_envs.alfworld import derivation
from agentgym_envs.alfworld.naming import alfred_names

_GLOBALS_LOCK = threading.RLock()
_TASK_PLACEHOLDER = "UNKNOWN GOAL"


@contextlib.contextmanager
def isolated() -> Iterator[None]:
    """Run TextWorld/fast-downward code without letting it change sys.argv or sys.stdout."""
    with _GLOBALS_LOCK:
        argv, saved_argv, stdout, stderr = sys.argv, list(sys.argv), sys.stdout, sys.stderr
        sys.stdout = io.StringIO()
        try:
            yield
        finally:
            argv[:] = saved_argv  # same list object, same contents
            sys.argv, sys.stdout, sys.stderr = argv, stdout, stderr


@dataclass
class Translation:
    """fast-downward's view of one problem: the parsed task and its SAS encodings.

    ``sas_replan`` (the optimised encoding fast-downward's planner searches) is only made when
    ``GameEngine.plan`` first needs it; playing never does.
    """

    task: Any
    sas: str
    sas_replan: str | None = None

    def ensure_replan(self, domain: str, problem: str) -> str:
        if self.sas_replan is None:
            with isolated():
                _, self.sas_replan = fast_downward.pddl2sas(domain, problem, optimize=True)
        return self.sas_replan


_TRANSLATIONS: OrderedDict[str, Translation] = OrderedDict()
_LOGICS: dict[str, pddl_logic.GameLogic] = {}


def problem_key(domain: str, problem: str) -> str:
    return hashlib.sha256((domain + "\0" + problem).encode()).hexdigest()


def translate(domain: str, problem: str, cached: Translation | None = None) -> Translation:
    """PDDL -> SAS, memoised per process (``cached`` seeds the memo from a disk cache)."""
    key = problem_key(domain, problem)
    if key in _TRANSLATIONS:
        _TRANSLATIONS.move_to_end(key)
        return _TRANSLATIONS[key]
    if cached is None:
        with isolated():
            task, sas = fast_downward.pddl2sas(domain, problem)
        cached = Translation(task, sas)
    _TRANSLATIONS[key] = cached
    while len(_TRANSLATIONS) > 256:
        _TRANSLATIONS.popitem(last=False)
    return cached


def _parse_logic(domain: str, grammar: str) -> pddl_logic.GameLogic:
    with isolated():
        return pddl_logic.GameLogic(domain=domain, grammar=grammar)


def game_logic(domain: str, grammar: str) -> pddl_logic.GameLogic:
    """The game's logic; the grammar is parsed once and only the task line differs per game."""
    head, sep, tail = grammar.partition("Your task is to: ")
    sentence, dot, rest = tail.partition('."')
    template = head + sep + _TASK_PLACEHOLDER + dot + rest
    base_key = hashlib.sha256((domain + "\0" + template).encode()).hexdigest()
    if not sep or not dot or (base_key not in _LOGICS and template.count(_TASK_PLACEHOLDER) != 1):
        key = hashlib.sha256((domain + "\0" + grammar).encode()).hexdigest()
        if key not in _LOGICS:
            _LOGICS[key] = _parse_logic(domain, grammar)
        return _LOGICS[key]
    if base_key not in _LOGICS:
        _LOGICS[base_key] = _parse_logic(domain, template)
    base = _LOGICS[base_key]
    logic = pddl_logic.GameLogic.__new__(pddl_logic.GameLogic)
    logic.domain, logic.actions, logic.types = base.domain, base.actions, base.types
    logic.grammar = ContextSensitiveGrammar()
    logic.grammar._rules.update(base.grammar._rules)
    task_rule = json.dumps(
        {"task": [{"rhs": "Your task is to: " + json.loads(f'"{sentence}"') + "."}]}
    )
    with isolated():
        logic.grammar._rules["task"] = ContextSensitiveGrammar.parse(task_rule)._rules["task"]
    return logic


class _State(pddl_logic.PddlState):
    """``PddlState`` built from a cached translation (the stock one translates every time)."""

    def __init__(self, lib: Any, problem: str, logic: Any, translation: Translation) -> None:
        self._facts = defaultdict(set)
        self._vars_by_name = {}
        self._vars_by_type = defaultdict(set)
        self._var_counts = Counter()
        self._logic, self.downward_lib, self.pddl_problem = logic, lib, problem
        self.task, self.sas, self.sas_replan = (
            translation.task,
            translation.sas,
            translation.sas_replan,
        )
        self._actions = {a.name: a for a in self.task.actions}
        for type_ in self.task.types:
            with contextlib.suppress(ValueError):
                self._logic.types.add(textworld.logic.Type(type_.name, type_.supertype_names))
        lib.load_sas(self.sas.encode("utf-8"))
        # fast-downward's planner task (sas_replan) is loaded by GameEngine.plan when needed.
        self.name2type = {o.name: o.type_name for o in self.task.objects}
        facts = []
        for atom in self.task.init:
            if (
                isinstance(atom, fast_downward.translate.pddl.conditions.Atom)
                and atom.predicate != "="
            ):
                facts.append(
                    textworld.logic.Proposition(
                        atom.predicate,
                        [textworld.logic.Variable(a, self.name2type[a]) for a in atom.args],
                    )
                )
        self.add_facts(facts)
        atoms = (pddl_logic.Atom * lib.get_state_size())()
        lib.get_state(atoms)
        self.add_facts(
            [f for f in (a.get_fact(self.name2type) for a in atoms) if not f.is_negation]
        )


def _copy_state(state: _State) -> _State:
    """A fresh copy of a state's facts (the library's own state is reloaded separately)."""
    copy = object.__new__(_State)
    copy.__dict__.update(state.__dict__)
    copy._facts = defaultdict(set, {k: set(v) for k, v in state._facts.items()})
    copy._vars_by_name = dict(state._vars_by_name)
    copy._vars_by_type = defaultdict(set, {k: set(v) for k, v in state._vars_by_type.items()})
    copy._var_counts = Counter(state._var_counts)
    return copy


_LIB_POOL: list[Any] = []


def _acquire_lib() -> Any:
    """A private copy of fast-downward's library (its state is global to the copy).

    Copies are pooled rather than ``dlclose``d: unloading one copy while others are loaded
    crashed the process (the copies share some C++ runtime symbols).
    """
    with _GLOBALS_LOCK:
        if _LIB_POOL:
            return _LIB_POOL.pop()
        with isolated():
            return fast_downward.load_lib()


def _release_lib(lib: Any) -> None:
    with _GLOBALS_LOCK:
        _LIB_POOL.append(lib)


def static_predicates(task: Any) -> set[str]:
    """Predicates that no action's effect mentions: their truth never changes in a game."""
    changing = {effect.literal.predicate for action in task.actions for effect in action.effects}
    return {p.name for p in task.predicates} - changing


_QUERY_PREDICATE = re.compile(r"(\w+)\(")


class GameEngine:
    """Plays one game at a time; ``load`` a game dict, then ``reset``/``step`` like ``PddlEnv``."""

    def __init__(self, verify_commands: bool = False) -> None:
        self._lib = _acquire_lib()
        self.verify_commands = verify_commands
        self._key: str | None = None
        self._state: _State | None = None
        self._initial: _State | None = None
        self._games: OrderedDict[str, tuple] = OrderedDict()
        self._replan_loaded = False  # fast-downward's planner task matches the current game
        self._commands: dict[str, str] = {}
        self._intro: str | None = None
        self.won = False

    # -- loading -------------------------------------------------------------------------------
    #: What the engine keeps per game, so that switching back to a game is as cheap as a reset.
    _PER_GAME = (
        "_logic",
        "_translation",
        "_problem",
        "_domain",
        "_initial",
        "_commands",
        "_intro",
        "_actions",
        "_entity_infos",
    )
    max_games: int = 32

    def load(self, game: dict[str, Any], translation: Translation | None = None) -> None:
        """Make ``game`` the current game (cheap when it was loaded recently)."""
        key = problem_key(game["pddl_domain"], game["pddl_problem"] + "\0" + game["grammar"])
        if key == self._key:
            return
        if self._key is not None:
            self._games[self._key] = tuple(getattr(self, name) for name in self._PER_GAME)
            while len(self._games) > self.max_games:
                self._games.popitem(last=False)
        self._key, self._state, self._replan_loaded = key, None, False
        if key in self._games:
            self._games.move_to_end(key)
            for name, value in zip(self._PER_GAME, self._games[key], strict=False):
                setattr(self, name, value)
            return
        self._logic = game_logic(game["pddl_domain"], game["grammar"])
        self._translation = translate(game["pddl_domain"], game["pddl_problem"], translation)
        self._check_static_templates()
        self._problem, self._domain = game["pddl_problem"], game["pddl_domain"]
        self._initial, self._commands, self._intro, self._actions = None, {}, None, {}
        self._entity_infos = None

    def _check_static_templates(self) -> None:
        static = static_predicates(self._translation.task)
        for action in self._logic.actions.values():
            used = {p.lower() for p in _QUERY_PREDICATE.findall(action.template)}
            if not used <= {s.lower() for s in static}:
                self.verify_commands = True  # text may depend on the state: never trust the cache

    # -- playing -------------------------------------------------------------------------------
    def reset(self) -> str:
        if self._initial is None:
            with isolated():
                self._initial = _State(self._lib, self._problem, self._logic, self._translation)
        else:
            self._lib.load_sas(self._translation.sas.encode("utf-8"))
        self._state = _copy_state(self._initial)
        if self._entity_infos is None:
            self._entity_infos = self._make_entity_infos()
        self.won = bool(self._state.check_goal())
        if self._intro is None:
            self._intro = self._derive("#intro#", {})
        self._refresh()
        return self._intro

    def _make_entity_infos(self) -> dict[str, EntityInfo]:
        assert self._state is not None
        infos = {
            v.name: EntityInfo(v.name, v.type) for fact in self._state.facts for v in fact.arguments
        }
        names = alfred_names(list(infos))
        for info in infos.values():
            info.name, info.definite, info.indefinite = names[info.id], "the", "a"
        return infos

    def _derive(self, rule: str, mapping: dict) -> str:
        assert self._state is not None
        context = {
            "state": self._state,
            "variables": {ph.name: self._entity_infos[var.name] for ph, var in mapping.items()},
            "mapping": mapping,
            "entity_infos": self._entity_infos,
        }
        return derivation.derive(self._logic.grammar, rule, context)

    def _refresh(self) -> None:
        """Applicable actions and their command texts, in the engine's order."""
        self._valid: list[tuple[str, Any]] = []
        for operator, action in self._applicable_actions():
            text = self._commands.get(operator)
            if text is None or self.verify_commands:
                names = {k: info.name for k, info in self._entity_infos.items()}
                template = action.command_template
                action.command_template = self._derive(template, action.mapping)
                fresh = action.format_command(names)
                action.command_template = template
                if text is not None and fresh != text:
                    raise AssertionError(
                        f"command text changed with the state: {text!r} -> {fresh!r}"
                    )
                text = self._commands[operator] = fresh
            self._valid.append((text, action))
        self._admissible = sorted({text for text, _ in self._valid})

    def _applicable_actions(self) -> list[tuple[str, Any]]:
        """``PddlState.all_applicable_actions`` with one ``Action`` object kept per operator."""
        state, lib = self._state, self._lib
        operators = (fast_downward.Operator * lib.get_applicable_operators_count())()
        lib.get_applicable_operators(operators)
        state._operators = {op.id: op for op in operators}
        result, seen = [], set()
        for op in operators:
            name = op.name
            if name in seen:
                continue
            seen.add(name)
            action = self._actions.get(name)
            if action is None:
                action_name, *arguments = name.split()
                action = textworld.logic.Action(
                    name=action_name, preconditions=[], postconditions=[]
                )
                parameters = state._actions[action_name].parameters
                action.mapping = {
                    Placeholder(p.name.strip("?"), p.type_name): Variable(arg, p.type_name)
                    for p, arg in zip(parameters, arguments, strict=False)
                }
                action.command_template = self._logic.actions[action_name].template
                action.feedback_rule = self._logic.actions[action_name].feedback_rule
                self._actions[name] = action
            action.id = op.id
            result.append((name, action))
        return result

    def admissible_commands(self) -> list[str]:
        return list(self._admissible)

    def step(self, command: str) -> tuple[str, bool]:
        """Apply ``command``: (feedback, applied); unknown text: ("Nothing happens.", False)."""
        command = command.strip()
        action = next((a for text, a in self._valid if text == command), None)
        if action is None:
            return "Nothing happens.", False
        self._state.apply(action)
        feedback = self._derive(action.feedback_rule, action.mapping)
        self.won = bool(self._state.check_goal())
        self._refresh()
        return feedback, True

    def facts(self) -> frozenset:
        return frozenset(self._state.facts)

    def names(self) -> dict[str, str]:
        """Entity id -> the name the game shows (``apple 1``)."""
        return {k: info.name for k, info in self._entity_infos.items()}

    def expert_plan(self, task: dict[str, Any]) -> list[str]:
        """The task-aware planner's commands from the current state (see ``expert``)."""
        from agentgym_envs.alfworld.expert import plan

        return plan(self._state.facts, self.names(), task)

    def plan(self) -> list[str]:
        """fast-downward's plan from the current state ([] when none); slow on big houses."""
        if not self._replan_loaded:
            sas = self._translation.ensure_replan(self._domain, self._problem)
            self._lib.load_sas_replan(sas.encode("utf-8"))
            self._replan_loaded = True
        with isolated():
            return self._state.replan(self._entity_infos)

    def close(self) -> None:
        """Hand the library copy back to the pool (idempotent)."""
        lib, self._lib = self._lib, None
        self._state = self._initial = None
        self._games.clear()
        if lib is not None:
            _release_lib(lib)
