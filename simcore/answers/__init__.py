"""The answers, one per command: odds, simulate, bid odds, games, compare, playthrough, bench."""
