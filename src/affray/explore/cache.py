"""The resume cache: every cell worked out, one JSON line each, next to the output.

Lines are appended as batches finish and flushed to disk, so an interrupted sweep
(Ctrl-C, a lost worker, a power cut) keeps every cell it had finished and the next
run works out only the rest. A line cut short by a crash is skipped. A cell is
found by its key (:func:`affray.explore.grid.cell_key`), so an edited sweep reuses
only the cells that are still the same.

The file holds each cell once: a cell already kept is never appended again, and a
file with lines it cannot use (cut short, damaged, refused, or the same cell twice)
is written afresh, whole, with the next cells kept, so resuming never makes it grow
past one line a cell.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

from affray.errors import AffrayError
from affray.explore.compute import Result

CACHE_NAME = "cells-cache.jsonl"


class Cache:
    """The cells already worked out for an output folder."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / CACHE_NAME
        self.results: dict[str, Result] = {}
        self._cut = False
        self._fresh = False
        try:
            if self.path.is_file():
                lines: list[int] = []
                self.results = dict(_read(self.path, lines))
                self._fresh = lines[0] != len(self.results)  # lines it cannot use: rewrite
                with self.path.open("rb") as file:
                    file.seek(0, os.SEEK_END)
                    if file.tell():
                        file.seek(-1, os.SEEK_END)
                        self._cut = file.read(1) != b"\n"  # a crash cut the last line short
        except OSError as error:
            raise _unusable(self.path, error) from None

    def __contains__(self, key: str) -> bool:
        return key in self.results

    def __getitem__(self, key: str) -> Result:
        return self.results[key]

    def __len__(self) -> int:
        return len(self.results)

    def add(self, done: Iterable[tuple[str, Result]]) -> None:
        """Keep these cells, on disk before this returns."""
        new = {key: result for key, result in done if key not in self.results}
        if not new:
            return
        self.results.update(new)
        if self._fresh:  # the whole file afresh: every cell kept, each once
            new = self.results
        lines = [
            json.dumps({"key": key, "result": result.to_json()}) + "\n"
            for key, result in new.items()
        ]
        if self._cut and not self._fresh:  # end the cut line: new ones start their own
            lines.insert(0, "\n")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self._fresh:
                part = self.path.with_name(self.path.name + ".part")
                with part.open("w", encoding="utf-8") as file:
                    file.write("".join(lines))
                    file.flush()
                    os.fsync(file.fileno())
                os.replace(part, self.path)
            else:
                with self.path.open("a", encoding="utf-8") as file:
                    file.write("".join(lines))
                    file.flush()
                    os.fsync(file.fileno())
        except OSError as error:
            raise _unusable(self.path, error) from None
        self._cut = self._fresh = False

    def clear(self) -> None:
        """Forget every cell (``--fresh``). The file on disk is replaced only when the
        first new cell is written, so a run stopped before then loses nothing."""
        self.results = {}
        self._fresh = True


def _unusable(path: Path, error: OSError) -> AffrayError:
    return AffrayError(
        f"cannot use the cache {path}: {error.strerror or error}",
        hint="choose another folder with --out DIR",
    )


def _read(path: Path, count: list[int]) -> Iterable[tuple[str, Result]]:
    """The cells of the file; ``count`` is given how many lines it has (a damaged or
    repeated line counted too: more lines than cells say it is to be written afresh)."""
    count.append(0)
    with path.open(encoding="utf-8", errors="replace") as file:
        for line in file:
            if line.strip():
                count[0] += 1
            try:
                entry = json.loads(line)
                yield str(entry["key"]), Result.from_json(entry["result"])
            except (ValueError, KeyError, TypeError):  # a line cut short by a crash
                continue
