"""Croupier: a stateless rules engine for card games."""
