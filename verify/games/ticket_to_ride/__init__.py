"""Ticket to Ride: The Card Game's rules engine (`rules`) and its exact end-of-game scoring (`scoring`)."""
