"""The games shipped with cardgen, one print package each, registered here one line a game."""

from cardgen.games import flamme_rouge, game_of_trains
from cardgen.games import moscow_to_paris
from cardgen.games import spectral_rails
from cardgen.registry import register

register(game_of_trains.GAME)
register(flamme_rouge.GAME)
register(moscow_to_paris.GAME)
register(spectral_rails.GAME)
