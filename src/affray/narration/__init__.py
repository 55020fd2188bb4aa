"""Events → readable text: one line per action, every roll and modifier shown.

The narrator is a view of the event log. It returns lines of styled segments
(plain data: ``(text, style)``) so that the CLI can colour them with rich and
everything else can use :func:`plain`. Each rule system's handlers live in a
module of its own (``rulesystems/<system>/narration.py``), a :class:`Narration` its
:class:`~affray.powers.RuleSystem` carries.

Example line::

    Sellsword attacks Spearman (2h sword): d20 14+3=17 vs evasion 12 → hit;
    power 3d6 [5,2,6] vs protection 2 → 2 wounds; total 2 wounds;
    shock 1d10 [3]=3 > 2 → keeps fighting
"""

from affray.narration import encounter
from affray.narration.core import Line, Narration, Segment, plain
from affray.narration.telling import narrate, narrate_text

__all__ = ["Line", "Narration", "Segment", "encounter", "narrate", "narrate_text", "plain"]
