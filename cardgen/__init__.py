"""cardgen: print-and-play sets and rules verification for five published games."""

__version__ = "0.1.0"
