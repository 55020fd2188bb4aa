"""A table's state, and what each command does to it (pure: no I/O, no clock).

The state is the encounter (the rules' own state) plus what the table keeps
around it: where each combatant came from, its tactics, whose turn it is, the
game master's conditions and notes. :func:`apply` runs one command through the
rules; dice and choices come from the :class:`Answers` it is given, so the same
function plays a command live (typed-in faces, rolled dice, the tactics AI) and
replays it from the log (the faces and answers it used).

Turns: the round's queue comes from the rules (``begin_round``). The first turn
in the queue of someone still fighting is the current one. When it comes, the
rules' bookkeeping of the turn (``begin_turn``: spending the action) is done at
once, unless it asks something (whether anyone interrupts): then it is done by
the turn's command, with that command's dice and choices. A turn the rules skip
(a Midian action spent on defending) is skipped at once. ``act`` plays the
current combatant's turn; ``next`` passes it (the combatant holds), or, when every
turn of the round is taken, ends the round and starts the next.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from affray import registry
from affray.dice import Dice
from affray.encounter import Action, Answers, Chooser, Encounter, Question, Ruleset, Targeting
from affray.encounter.engine import action_question, sides_fighting
from affray.encounter.events import ActionChosen, EncounterEnded, RoundStarted
from affray.encounter.model import Combatant, named
from affray.errors import AffrayError, RulesError
from affray.events import Event
from affray.sheets.combatants import sheet_from_data
from affray.table.commands import Act, Add, Command, Edge, Mark, Next, Note, Start, Unmark
from affray.table.events import (
    CombatantAdded,
    ConditionAdded,
    ConditionEnded,
    NoteAdded,
    TurnPassed,
)

MAX_COMBATANTS = 200


class Phase(Enum):
    SETUP = "setup"  # combatants are being added; no round yet
    TURN = "turn"  # someone's turn
    ROUND_OVER = "round over"  # every turn of the round is taken
    OVER = "over"  # at most one side is still fighting


@dataclass(frozen=True, slots=True)
class Condition:
    """A condition the game master keeps (the rules do not read it)."""

    combatant: str
    text: str
    ends: Edge | None = None
    of: str | None = None
    turns: int = 1

    @property
    def until(self) -> str:
        if self.ends is None or self.of is None:
            return ""
        which = "next turn" if self.turns == 1 else f"turn {self.turns} turns from now"
        return f"the {self.ends.value} of {self.of}'s {which}"


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules a table plays by: its system and that system's ruleset (options set)."""

    system: registry.AnySystem
    ruleset: Ruleset[Any, Any]

    @classmethod
    def of(cls, system: str, options: Mapping[str, object]) -> Rules:
        chosen = registry.system(system)
        keys = registry.EncounterKeys(dict(options), {}, "table options")
        return cls(chosen, chosen.ruleset(keys))

    def ai(self, state: TableState, dice: Dice) -> Chooser[Any, Any]:
        """The combatants' tactics, answering what no one at the table answered."""
        return self.system.ai(self.ruleset, state.tactics, dice)


@dataclass(frozen=True, slots=True)
class TableState:
    encounter: Encounter[Any, Any]
    sources: Mapping[str, str] = field(default_factory=dict)
    tactics: Mapping[str, object] = field(default_factory=dict)
    players: frozenset[str] = frozenset()
    """Player characters: their sides are the players' friends."""
    started: bool = False
    order: tuple[str, ...] = ()
    """The round's turns as the rules set them out (a combatant with several actions
    appears as often); ``encounter.queue`` holds those still to come."""
    current: str | None = None
    begun: bool = False
    """Whether the rules' bookkeeping of the current turn is done (it is done when the
    turn comes, unless it asks something, such as whether anyone interrupts)."""
    conditions: tuple[Condition, ...] = ()
    notes: tuple[str, ...] = ()

    @classmethod
    def empty(cls) -> TableState:
        return cls(Encounter((), {}))

    @property
    def round(self) -> int:
        return self.encounter.round

    def phase(self, rules: Rules) -> Phase:
        if not self.started:
            return Phase.SETUP
        if len(sides_fighting(self.encounter, rules.ruleset)) <= 1:
            return Phase.OVER
        return Phase.TURN if self.current is not None else Phase.ROUND_OVER

    def conditions_of(self, cid: str) -> list[Condition]:
        return [c for c in self.conditions if c.combatant == cid]

    def resolve(self, name: str) -> str:
        """The id of the combatant called ``name`` (case forgiven; a unique start will do).

        Raises:
            RulesError: no one, or more than one, is called that.
        """
        ids = [c.id for c in self.encounter.combatants]
        wanted = " ".join(name.lower().split())
        exact = [cid for cid in ids if cid.lower() == wanted]
        found = exact or [cid for cid in ids if cid.lower().startswith(wanted)]
        if len(found) == 1:
            return found[0]
        listed = ", ".join(ids) or "no one yet"
        if found:
            raise RulesError(f"{name!r} could be {', '.join(found)}", hint=f"say which: {listed}")
        raise RulesError(f"no combatant is called {name!r}", hint=f"at the table: {listed}")


def apply(
    rules: Rules, state: TableState, command: Command, answers: Answers[Any, Any]
) -> tuple[TableState, list[Event]]:
    """``command`` played on ``state``: the state after it and what happened.

    Raises:
        AffrayError: the rules refuse it (nothing is changed: states are values).
    """
    was_over = state.phase(rules) is Phase.OVER
    match command:
        case Add():
            state, events = _add(rules, state, command)
        case Start():
            state, events = _start(rules, state, answers)
        case Act():
            state, events = _act(rules, state, command, answers)
        case Next():
            state, events = next_step(rules, state, answers)
        case Mark():
            state, events = _mark(state, command)
        case Unmark():
            state, events = _unmark(state, command)
        case Note(text=text):
            state, events = replace(state, notes=(*state.notes, text)), [NoteAdded(text)]
    if state.started and not was_over and state.phase(rules) is Phase.OVER:
        events.append(_ending(rules, state))
    return state, events


# -- the commands -----------------------------------------------------------------------


def _add(rules: Rules, state: TableState, command: Add) -> tuple[TableState, list[Event]]:
    encounter = state.encounter
    if len(encounter.combatants) >= MAX_COMBATANTS:
        raise RulesError(f"a table holds at most {MAX_COMBATANTS} combatants")
    if any(c.id.lower() == command.combatant.lower() for c in encounter.combatants):
        raise RulesError(
            f"there is already a combatant called {command.combatant!r}",
            hint="give the new one another name with --as",
        )
    sheet = sheet_from_data(command.sheet, command.source)
    if not rules.system.owns(sheet):
        raise RulesError(
            f"{command.source} is not a {rules.system.title} sheet",
            hint=f"this table plays {rules.system.title}: add {rules.system.name} sheets",
        )
    try:
        targeting = Targeting.named(command.tactics)
        tactics = rules.system.tactics(
            targeting, dict(command.tactics_keys), command.source, "tactics"
        )
    except AffrayError as error:
        raise RulesError(f"tactics {command.tactics!r}: {error.message}", hint=error.hint) from None
    sheet = named(sheet, command.combatant)
    combatant = Combatant(command.combatant, command.side, sheet)
    encounter = replace(
        encounter,
        combatants=(*encounter.combatants, combatant),
        states={**encounter.states, combatant.id: rules.ruleset.initial_state(sheet)},
    )
    state = replace(
        state,
        encounter=encounter,
        sources={**state.sources, combatant.id: command.source},
        tactics={**state.tactics, combatant.id: tactics},
        players=state.players | {combatant.id} if command.player else state.players,
    )
    return state, [CombatantAdded(combatant.id, command.side, command.source)]


def _start(
    rules: Rules, state: TableState, answers: Answers[Any, Any]
) -> tuple[TableState, list[Event]]:
    if state.started:
        raise RulesError(
            f"the fight has started already (round {state.round})",
            hint="go on with `affray table act` and `affray table next`",
        )
    sides = {c.side for c in state.encounter.combatants}
    if len(sides) < 2:
        raise RulesError(
            "a fight needs combatants on at least two sides",
            hint="add more combatants with `affray table add TABLE SHEET --side SIDE`",
        )
    return _new_round(rules, replace(state, started=True), answers)


def _act(
    rules: Rules, state: TableState, command: Act, answers: Answers[Any, Any]
) -> tuple[TableState, list[Event]]:
    actor = state.resolve(command.actor)
    _check_turn(rules, state, actor)
    if state.begun:  # say what is wrong with the action before any die is rolled
        legal = rules.ruleset.actions(state.encounter, actor)
        choose_action(legal, actor, command.action, command.target)

    def pick(encounter: Encounter[Any, Any]) -> Action:
        legal = rules.ruleset.actions(encounter, actor)
        return choose_action(legal, actor, command.action, command.target)

    return _turn(rules, state, actor, pick, answers)


def play_turn(
    rules: Rules, state: TableState, answers: Answers[Any, Any]
) -> tuple[TableState, list[Event]]:
    """The current combatant's turn, its action chosen by ``answers`` (its tactics, in
    a simulation) from the legal ones."""
    actor = state.current
    assert actor is not None

    def pick(encounter: Encounter[Any, Any]) -> Action:
        return answers.ask(encounter, action_question(encounter, rules.ruleset, actor))

    return _turn(rules, state, actor, pick, answers)


def _turn(
    rules: Rules,
    state: TableState,
    actor: str,
    pick: Callable[[Encounter[Any, Any]], Action],
    answers: Answers[Any, Any],
) -> tuple[TableState, list[Event]]:
    state, events, free = _begin_turn(rules, state, actor, answers)
    if free:
        action = pick(state.encounter)
        encounter, more = rules.ruleset.perform(state.encounter, actor, action, answers)
        state = replace(state, encounter=encounter)
        events = [*events, ActionChosen(actor, action), *more]
    state, ended = _end_turn(state, actor)
    state, skipped = _advance(rules, state)
    return state, [*events, *ended, *skipped]


def _begin_turn(
    rules: Rules, state: TableState, cid: str, answers: Answers[Any, Any]
) -> tuple[TableState, list[Event], bool]:
    """The rules' bookkeeping of ``cid``'s turn, unless done when the turn came."""
    if state.begun:
        return state, [], True
    encounter, events, free = rules.ruleset.begin_turn(state.encounter, cid, answers)
    return replace(state, encounter=encounter, begun=True), events, free


def next_step(
    rules: Rules, state: TableState, answers: Answers[Any, Any]
) -> tuple[TableState, list[Event]]:
    """``next``: pass the current turn, or end the round and start the next."""
    if _fighting_phase(rules, state) is Phase.TURN:
        assert state.current is not None
        actor = state.current
        state, events, free = _begin_turn(rules, state, actor, answers)
        passed: list[Event] = [TurnPassed(actor)] if free else []
        state, ended = _end_turn(state, actor)
        state, skipped = _advance(rules, state)
        return state, [*events, *passed, *ended, *skipped]
    encounter, events = rules.ruleset.end_round(state.encounter, answers)
    state = replace(state, encounter=encounter)
    if state.phase(rules) is Phase.OVER:
        return state, events
    state, more = _new_round(rules, state, answers)
    return state, [*events, *more]


def _mark(state: TableState, command: Mark) -> tuple[TableState, list[Event]]:
    who = state.resolve(command.combatant)
    text = " ".join(command.text.split())
    if not text:
        raise RulesError("a condition needs a name", hint='e.g. "prone" or "on fire"')
    of = None
    if command.ends is not None:
        of = state.resolve(command.of) if command.of else who
    if command.turns < 1:
        raise RulesError(f"a condition lasts at least 1 turn, not {command.turns}")
    condition = Condition(who, text, command.ends, of, command.turns)
    kept = tuple(c for c in state.conditions if (c.combatant, c.text) != (who, text))
    return replace(state, conditions=(*kept, condition)), [
        ConditionAdded(who, text, condition.until)
    ]


def _unmark(state: TableState, command: Unmark) -> tuple[TableState, list[Event]]:
    who = state.resolve(command.combatant)
    held = state.conditions_of(who)
    gone = [c for c in held if c.text.lower() == " ".join(command.text.lower().split())]
    if not gone:
        listed = ", ".join(c.text for c in held) or "none"
        raise RulesError(f"{who} is not {command.text!r}", hint=f"{who}'s conditions: {listed}")
    kept = tuple(c for c in state.conditions if c is not gone[0])
    return replace(state, conditions=kept), [ConditionEnded(who, gone[0].text, "")]


# -- turns and rounds -------------------------------------------------------------------


def _fighting_phase(rules: Rules, state: TableState) -> Phase:
    """The phase, which must be a turn or the end of a round.

    Raises:
        RulesError: the fight has not started, or is over.
    """
    phase = state.phase(rules)
    if phase is Phase.SETUP:
        raise RulesError("the fight has not started", hint="start it with `affray table start`")
    if phase is Phase.OVER:
        raise RulesError(_over(rules, state), hint="undo to go back, or add combatants")
    return phase


def _check_turn(rules: Rules, state: TableState, actor: str) -> None:
    if _fighting_phase(rules, state) is Phase.ROUND_OVER:
        raise RulesError(
            f"every turn of round {state.round} is taken",
            hint=f"`affray table next` ends the round and starts round {state.round + 1}",
        )
    if state.current != actor:
        raise RulesError(
            f"it is {state.current}'s turn, not {actor}'s",
            hint=f"act for {state.current}, or pass its turn with `affray table next`",
        )


def choose_action(legal: Sequence[Action], actor: str, name: str, target: str | None) -> Action:
    """The legal action called ``name`` (its kind or its full name) at ``target``.

    Raises:
        RulesError: no legal action fits; the message lists those there are.
    """
    wanted = " ".join(name.lower().split())
    named_so = [a for a in legal if wanted in (a.kind.lower(), a.name.lower())]
    if target is not None:
        aim = " ".join(target.lower().split())
        fits = [a for a in named_so if a.target is not None and a.target.lower() == aim]
        fits = fits or [a for a in named_so if a.target and a.target.lower().startswith(aim)]
    else:
        fits = named_so
    if len(fits) == 1:
        return fits[0]
    options = ", ".join(a.label for a in legal)
    if len(fits) > 1:
        raise RulesError(
            f"{name} whom? {actor} may {name} " + ", ".join(a.target or "" for a in fits),
            hint=f"name the target: {options}",
        )
    if named_so and target is not None:
        targets = ", ".join(a.target for a in named_so if a.target) or "no one"
        raise RulesError(
            f"{actor} cannot {name} {target!r} now",
            hint=f"{actor} may {name}: {targets}",
        )
    raise RulesError(f"{name!r} is not something {actor} can do now", hint=f"legal: {options}")


def _new_round(
    rules: Rules, state: TableState, answers: Answers[Any, Any]
) -> tuple[TableState, list[Event]]:
    encounter = state.encounter.next_round()
    encounter, opening, turns = rules.ruleset.begin_round(encounter, answers)
    order = tuple(turns)
    encounter = encounter.queued(order)
    state = replace(state, encounter=encounter, current=None, order=order)
    state, events = _advance(rules, state)
    return state, [RoundStarted(encounter.round, order), *opening, *events]


def _advance(rules: Rules, state: TableState) -> tuple[TableState, list[Event]]:
    """On to the next turn that needs someone: past turns of those out of the fight,
    and past turns the rules skip without asking anything."""
    events: list[Event] = []
    ruleset = rules.ruleset
    while state.current is None and state.phase(rules) is not Phase.OVER:
        encounter = state.encounter
        if not encounter.queue:
            break
        cid, encounter = encounter.next_turn()
        state = replace(state, encounter=encounter)
        if not ruleset.fighting(encounter, cid):
            continue
        state, ended = _expire(replace(state, current=cid, begun=False), cid, Edge.START)
        events.extend(ended)
        try:
            after, skipped, free = ruleset.begin_turn(encounter, cid, Answers(_NoDice(), _NoOne()))
        except _InputNeededError:
            break  # it asks something (an interrupt?): that waits for the turn's command
        state = replace(state, encounter=after, begun=True)
        events.extend(skipped)
        if free:
            break  # the turn waits for its action
        state, ended = _end_turn(state, cid)
        events.extend(ended)
    return state, events


def _end_turn(state: TableState, cid: str) -> tuple[TableState, list[Event]]:
    return _expire(replace(state, current=None, begun=False), cid, Edge.END)


def _expire(state: TableState, cid: str, edge: Edge) -> tuple[TableState, list[Event]]:
    """Count down conditions that last until the ``edge`` of ``cid``'s turn."""
    kept: list[Condition] = []
    events: list[Event] = []
    for condition in state.conditions:
        if condition.ends is not edge or condition.of != cid:
            kept.append(condition)
        elif condition.turns > 1:
            kept.append(replace(condition, turns=condition.turns - 1))
        else:
            why = f" (the {edge.value} of {cid}'s turn)"
            events.append(ConditionEnded(condition.combatant, condition.text, why))
    if kept == list(state.conditions):  # none of them counts this turn
        return state, []
    return replace(state, conditions=tuple(kept)), events


def _over(rules: Rules, state: TableState) -> str:
    left = sides_fighting(state.encounter, rules.ruleset)
    return f"the fight is over: {left[0]} won" if left else "the fight is over: no one is left"


def _ending(rules: Rules, state: TableState) -> EncounterEnded:
    ruleset = rules.ruleset
    left = sides_fighting(state.encounter, ruleset)
    standing = tuple(
        c.id for c in state.encounter.combatants if ruleset.fighting(state.encounter, c.id)
    )
    if left:
        return EncounterEnded(left[0], "the other side is out of the fight", state.round, standing)
    return EncounterEnded(None, "no one is left fighting", state.round, standing)


class _InputNeededError(Exception):
    """The rules asked for a die or a choice where none may be given."""


class _NoDice(Dice):
    def _face(self, sides: int, purpose: str) -> int:
        raise _InputNeededError(purpose)


class _NoOne:
    def choose(self, encounter: Encounter[Any, Any], question: Question[Any]) -> Any:
        raise _InputNeededError(question.prompt)
