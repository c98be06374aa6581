"""The base of the errors a user can act on (a bad file, a missing key, a server that is down).

Commands catch it and print its message, which names the file, field, URL or variable involved,
instead of a traceback.
"""


class CtsbenchError(Exception):
    """An error whose message tells the user what to fix."""
