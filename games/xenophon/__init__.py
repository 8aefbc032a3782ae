"""Xenophon: 10,000 Against Persia (S&T 203): data only so far (XEN-A).

Not registered as a game yet: the map (``data/map.toml``, made by
``tools/make_map.py``), the satrapy roster and both scenarios' set-ups
(``data/roster.toml``, ``data/scenarios.toml``), read by :mod:`.model`.
Rule IDs: ``xen:...`` (../shared/rules/xenophon.index.toml).
"""

PACKAGE = "ancients_games.xenophon"
