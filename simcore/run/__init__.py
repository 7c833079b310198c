"""Running in chunks (threads or a Dask cluster), the results store, and the statistics of merged tallies."""
