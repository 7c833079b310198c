"""The ``pinochle`` subcommands, one module each: ``add_parser(sub)`` registers the subcommand with its
arguments and ``run(args) -> int`` answers it (exit status). A module imports numpy, numba and the
answers inside ``run`` only."""
