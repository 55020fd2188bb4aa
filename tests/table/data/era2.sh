#!/bin/sh
# Writes era2.db and era2.json: Midian tables logged by affray at 58385f1, before
# issue 25's round 3 of fidelity (era 2), and what that affray's `table show --json`
# said of each. tests/table/test_eras.py checks today's affray folds them the same.
# Run from the repository: sh tests/table/data/era2.sh
set -e
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
python=${PYTHON:-$repo/.venv/bin/python}
old=$(mktemp -d)
git -C "$repo" archive 58385f1 | tar -x -C "$old"
# the docks brawl came with the untrained brawler rules (bef1d3a): only its data
git -C "$repo" show bef1d3a:examples/encounters/tavern_brawl.toml >"$old/examples/encounters/tavern_brawl.toml"
git -C "$repo" show bef1d3a:examples/midian/dockhand.toml >"$old/examples/midian/dockhand.toml"
db=$old/era2.db
affray() { (cd "$old" && PYTHONPATH="$old/src" "$python" -c "from affray.cli.main import main; main()" "$@" --db "$db") >/dev/null; }
# charges across open ground, again when a foe falls (no run-up rule then)
affray table new Charge --system midian
affray table import charge examples/encounters/charge.toml
affray table run charge --to-end --seed 2
# the same, stopped after twelve turns (today's affray goes on from there)
affray table new "Half charge" --system midian
affray table import half-charge examples/encounters/charge.toml
affray table run half-charge --turns 12 --seed 2
# dockhands without weapons strike with the fists' 1d2 and parry unhurt
affray table new Docks --system midian
affray table import docks examples/encounters/tavern_brawl.toml
affray table run docks --to-end --seed 2
# a waiter keeps its initiative and both its actions
affray table new Waiter --system midian
affray table add waiter examples/midian/guard.toml --side Watch
affray table add waiter examples/midian/brawler.toml --side Rogues
affray table add waiter bandit --side Rogues
affray table start waiter --seed 1
affray table act waiter Brawler wait Bandit
affray table run waiter --to-end --seed 1
cd "$old"
PYTHONPATH="$old/src" "$python" - "$db" >"$here/era2.json" <<'PY'
import json, sys
from click.testing import CliRunner
from affray.cli.main import cli
shown = {}
for table in ("charge", "half-charge", "docks", "waiter"):
    result = CliRunner().invoke(cli, ["table", "show", table, "--json", "--db", sys.argv[1]])
    assert result.exit_code == 0, result.output
    shown[table] = json.loads(result.output)
print(json.dumps(shown, indent=1, sort_keys=True))
PY
cp "$db" "$here/era2.db"
rm -rf "$old"
