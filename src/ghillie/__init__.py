"""ghillie: a neutral referee for hidden units in wargames.

>>> from ghillie import Game, examples
>>> game = Game.create(examples.load("suspicious-places"), seed=7)
>>> sorted(game.view("keno"))[:5]
['board', 'commands', 'known', 'lang', 'log']
"""

from ghillie.errors import Refusal, ScenarioError
from ghillie.game import Game, load_scenario
from ghillie.state import REFEREE, SPECTATOR, Level
from ghillie.view import view

__all__ = [
    "REFEREE",
    "SPECTATOR",
    "Game",
    "Level",
    "Refusal",
    "ScenarioError",
    "load_scenario",
    "view",
]
