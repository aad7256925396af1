"""Spectral Rails rule-sheet pictures."""
DIAGRAMS = {}


def example_diagram(content, lang, example):
    return None
