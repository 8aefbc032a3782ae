"""ancients-kit: the shared core of four ancient-warfare board wargames.

The core knows no game. It provides hex grids and maps (:mod:`.hexgrid`,
:mod:`.hexmap`), movement (:mod:`.movement`), combat and lookup tables
(:mod:`.tables`), dice, chits and cards (:mod:`.chance`), data files with
provenance (:mod:`.data`), the decision protocol and sessions
(:mod:`.session`), the log (:mod:`.log`), bots (:mod:`.bots`) and the plugin
contract games implement (:mod:`.plugin`). Games are found through the
``ancients_kit.games`` entry-point group.
"""

from __future__ import annotations

__version__ = "0.1.0"
