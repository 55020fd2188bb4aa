"""Each error's meaning, mapped once: its HTTP status (``affray.web.errors.STATUS``) and
its exit code at the terminal (``affray.cli.main``), and what each status's body says
besides the error and its tip."""

from __future__ import annotations

import asyncio
import json

import pytest

from affray.cli.main import UserError
from affray.errors import (
    ActionRefusedError,
    AffrayError,
    ConflictError,
    DatabaseBusyError,
    DieNeededError,
    NotAllowedError,
    PendingError,
    QuestionConflictError,
    RulesError,
    SheetError,
    TableError,
    UnknownCombatantError,
)
from affray.web.errors import attempt, refused, status

ERRORS: list[tuple[AffrayError, int]] = [
    (RulesError("no"), 422),
    (SheetError("bad key", key="armor"), 422),
    (TableError("no table"), 422),
    (UnknownCombatantError("snea", (), ("Knight",)), 422),
    (ActionRefusedError("Knight", "dance", None, [("attack Ogre", "Ogre", False)]), 422),
    (DieNeededError(20, "Knight's attack on Ogre", 0), 422),
    (NotAllowedError("not yours"), 403),
    (ConflictError(3, 4), 409),
    (QuestionConflictError("abc", "def"), 409),
    (PendingError("“Knight: attack Ogre” waits for a d20", "abc"), 409),
    (DatabaseBusyError("busy"), 503),
]


@pytest.mark.parametrize(("error", "code"), ERRORS, ids=[type(e).__name__ for e, _ in ERRORS])
def test_an_errors_meaning_is_its_status_and_its_exit_code(error: AffrayError, code: int) -> None:
    assert status(error) == code
    answer = refused(error)
    assert answer.status_code == code
    body = json.loads(bytes(answer.body))
    assert body["error"] == error.message
    assert UserError(error).exit_code == 2  # every user error leaves the terminal with 2
    if isinstance(error, ConflictError):
        assert body["version"] == 4
    if isinstance(error, QuestionConflictError | PendingError):
        assert body["question"] in ("def", "abc")
    if isinstance(error, DieNeededError):
        assert body["needs"]["die"]["sides"] == 20 and body["rolls"] == []
    if code == 503:
        assert answer.headers["retry-after"] == "2"


PAGE_WORDS = {
    "ConflictError": "The table changed (now version 4); here it is again.",
    "QuestionConflictError": "That question was answered already: nothing was applied; "
    "here is what the table asks now.",
    "PendingError": "“Knight: attack Ogre” waits for a d20: finish it or cancel it first. "
    "Nothing was applied.",
    "DieNeededError": None,  # taken: the table waits on it, and the panel asks
}


@pytest.mark.parametrize(("error", "code"), ERRORS, ids=[type(e).__name__ for e, _ in ERRORS])
def test_a_page_says_each_error_in_its_panel(error: AffrayError, code: int) -> None:
    """The pages answer a refused form with the panel and these words (the one table,
    ``WORDS``), never by a route's own catching; a player reads no tip."""

    async def refusing() -> None:
        raise error

    for reader in ("gm", "player"):
        value, said = asyncio.run(attempt(refusing(), reader))
        assert value is None
        name = type(error).__name__
        if name in PAGE_WORDS:
            assert said == PAGE_WORDS[name]
        else:
            assert said is not None and said.startswith(error.message)
            tipped = bool(error.hint) and reader == "gm"
            assert (f" — {error.hint}" in said) is tipped


def test_a_page_gets_what_it_asked_for_when_nothing_is_refused() -> None:
    async def made() -> int:
        return 7

    assert asyncio.run(attempt(made())) == (7, None)
