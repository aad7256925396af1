"""Spectral Rails rules engine."""
