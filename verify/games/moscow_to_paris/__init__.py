"""Moscow to Paris rules engine (`rules`)."""
