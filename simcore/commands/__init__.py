"""The ``pinochle`` subcommands, one module each: ``add_parser(sub)`` registers the subcommand with its
arguments and ``run(args) -> int`` answers it (exit status). What they share is in :mod:`.common`;
:mod:`simcore.cli` lists them. A module imports numpy, numba and the answers inside ``run`` only."""
