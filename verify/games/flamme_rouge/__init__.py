"""Flamme Rouge's rules engine (`rules`) and the exact odds of its decks (`odds`)."""
