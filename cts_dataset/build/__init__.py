"""``ctsbench build``: new instances from intent queries, as the paper built its gold (see :mod:`.builder`)."""
