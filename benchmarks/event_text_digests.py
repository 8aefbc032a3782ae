"""Re-check the recorded log digests (games/*/tests/test_throughput.py, test_movement_speed.py)
after the issue 14 event-text pass. Usage: python benchmarks/event_text_digests.py cc|cen|mv

Prove the recorded log digests change only by the event-text pass: with the old texts
patched back in (Roll.describe, CRT rolls citing their table's rules, C&C leader names and
"blocks"), a digest recorded before the pass is reproduced; the new digests are written to
WHICH-digests.json (a branch that recorded digests with the old texts can re-record them so)."""
import contextlib
import importlib.util
import json
import sys

sys.path.insert(0, ".")
from ancients_kit import chance

def old_describe(self):
    if self.kind == "shuffle":
        text = f"shuffle {self.source}"
    elif self.kind in ("draw", "pick"):
        text = f"{self.kind} {list(self.faces)} from {self.source}"
    else:
        text = f"{self.kind} {list(self.faces)}"
        if self.value is not None and len(self.faces) > 1:
            text += f" = {self.value}"
    if self.rerolled:
        text += f" (reroll of {list(self.rerolled)})"
    if self.reason:
        text += f" ({self.reason})"
    return text

@contextlib.contextmanager
def old_texts():
    from ancients_games.ccancients_rome import combat, leaders, orders
    from ancients_kit.tables import OddsTable
    saved = (chance.Roll.describe, OddsTable.roll, leaders.leader_called, orders.leader_called,
             combat.leader_called, orders._label_reference)
    new_roll = OddsTable.roll
    def roll(self, *a, rules=None, **k):
        return new_roll(self, *a, **k)
    def old_label(bs, it):
        if isinstance(it, orders.Unit):
            ld = bs.leader_with(it)
            return f"{bs.types[it.code].name} ({it.blocks} blocks)" + (f" with {ld.name}" if ld else "")
        if isinstance(it, orders.Leader):
            return it.name if "leader" in it.name else f"leader {it.name}"
        return it.kind.replace("-", " ")
    chance.Roll.describe = old_describe
    OddsTable.roll = roll
    leaders.leader_called = lambda ld, side=True: f"{ld.side} leader {ld.name}" if side else f"leader {ld.name}"
    orders.leader_called = lambda ld, side=True: f"leader {ld.name}"
    combat.leader_called = lambda ld, side=True: f"leader {ld.name}"
    orders._label_reference = old_label
    orders._LABELS.clear()
    try:
        yield
    finally:
        (chance.Roll.describe, OddsTable.roll, leaders.leader_called, orders.leader_called,
         combat.leader_called, orders._label_reference) = saved
        orders._LABELS.clear()

which = sys.argv[1]
path = {"cc": "games/ccancients_rome/tests/test_throughput.py", "cen": "games/centurion/tests/test_throughput.py",
        "mv": "games/centurion/tests/test_movement_speed.py"}[which]
spec = importlib.util.spec_from_file_location("t_" + which, path)
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
seeds = {"cc": range(1, 7), "cen": range(11, 17), "mv": range(1, 11)}[which]
out = {}
ok = True
for scen, rec in m.RECORDED.items():
    with old_texts():
        old = [m._digest(scen, s) for s in seeds]
    new = [m._digest(scen, s) for s in seeds]
    same = old == rec or new == rec
    ok &= same
    print(which, scen, "recording made with the old texts:", old == rec, "with the new texts:", new == rec, flush=True)
    out[scen] = {"recorded": rec, "old": old, "new": new}
json.dump(out, open(f"{which}-digests.json", "w"), indent=1)
print(which, "ALL OK" if ok else "MISMATCH")
