"""The built-in games, installed as the import package ``ancients_games``.

Each subpackage is a plugin registered in the ``ancients_kit.games``
entry-point group, exactly as a third-party game would be.
"""
