"""The official Clarify-Then-Search release (Hard518), imported from a user's copy of the archive.

Nothing of the release ships with ctsbench. :func:`~cts_dataset.release.importer.import_release` maps
the archive's files onto our records and writes the ``hard518`` split (:mod:`.store`); candidate files
are mapped by :mod:`.candidates` (also for ``ctsbench score``).
"""
