"""Game of Trains' rules engine (`rules`)."""
