"""Analyses: one module per question, each returning pandas DataFrames with interval columns, with
plot functions kept apart from the computing. They use only ``simcore``'s public API."""
