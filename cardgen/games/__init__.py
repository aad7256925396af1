"""The games shipped with cardgen, one print package each, registered here one line a game."""

from cardgen.games import flamme_rouge, game_of_trains
from cardgen.games import ticket_to_ride
from cardgen.games import spectral_rails
from cardgen.games import moscow_to_paris
from cardgen.registry import register

register(game_of_trains.GAME)
register(flamme_rouge.GAME)
register(ticket_to_ride.GAME)
register(spectral_rails.GAME)
register(moscow_to_paris.GAME)
