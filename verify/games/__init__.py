"""The rules engines, one package per game. A game's engine is named by its `GameDefinition`
(`cardgen.registry`), never looked up by name."""
