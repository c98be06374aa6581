"""Saved prefix states of the reproducible llama.cpp engine.

A request of the ``prefix`` setting starts from its own prefix (a role's instructions), always computed the
same way. That state is saved once with llama.cpp's slot save and restored for later requests with the
same prefix (about 2 ms and 9 MB for a 300-token prefix of the packaged model): the same bytes as reading
it again, without the reading. The files live in a private temporary folder that goes with the engine; a
killed process's folder is removed by the next engine started on the same host.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import tempfile
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

SAVED_PREFIXES = 16  # files kept, the least recently used dropped first
FOLDER_PREFIX = "ctsbench-prefixes-"  # + "PID.HOST-" + a random part


def _owner() -> str:
    """This process on this host, as a folder name records it."""
    return f"{os.getpid()}.{hashlib.sha256(socket.gethostname().encode()).hexdigest()[:8]}"


def _remove_folder(folder: str, pid: int) -> None:
    if os.getpid() == pid:  # a forked child must not remove its parent's live folder
        shutil.rmtree(folder, ignore_errors=True)


def remove_folders_of_ended_processes(directory: str | None = None) -> None:
    """Delete saved-prefix folders whose process on this host has ended without closing its engine."""
    if os.name != "posix":
        return
    host = _owner().split(".", 1)[1]
    for folder in Path(directory or tempfile.gettempdir()).glob(f"{FOLDER_PREFIX}*"):
        pid, _, owner_host = folder.name.removeprefix(FOLDER_PREFIX).split("-", 1)[0].partition(".")
        if owner_host != host or not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except OSError:  # alive, another user's
            pass


class SavedPrefixes:
    """The saved prefix states of one engine. ``http(route, body)`` calls the engine's server, which must
    have been started with :attr:`save_path` as its ``slot_save_path``. The caller serialises the calls
    (the engine's slot lock)."""

    def __init__(self, http: Callable[[str, dict[str, Any]], Any], limit: int = SAVED_PREFIXES) -> None:
        remove_folders_of_ended_processes()
        self.folder = tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{_owner()}-")
        self._remove = weakref.finalize(self, _remove_folder, self.folder, os.getpid())  # also at exit
        self._http, self.limit = http, limit
        self._files: dict[str, int] = {}  # file name: prefix tokens, least recently used first

    @property
    def save_path(self) -> str:
        """The server's ``slot_save_path``: llama.cpp joins it and a file name as strings."""
        return os.path.join(self.folder, "")

    @staticmethod
    def name_of(prefix: Sequence[int]) -> str:
        return hashlib.sha256(json.dumps(list(prefix)).encode()).hexdigest()[:32] + ".bin"

    def __contains__(self, name: str) -> bool:
        return name in self._files

    def save(self, name: str, n_tokens: int) -> None:
        """Save the slot's state (exactly the prefix) as ``name``; a failed save only costs a later reread."""
        if int(self._slot_action("save", name).get("n_saved", -1)) != n_tokens:
            self._forget(name)
            return
        self._files[name] = n_tokens
        while len(self._files) > self.limit:
            self._forget(next(iter(self._files)))

    def restore(self, name: str, n_tokens: int) -> bool:
        """Load the state ``name`` into the slot: True when the slot holds all ``n_tokens`` again. On False
        the file is dropped and the slot is empty (llama.cpp clears it when a restore fails)."""
        if int(self._slot_action("restore", name).get("n_restored", -1)) != n_tokens:
            self._forget(name)
            return False
        self._files[name] = self._files.pop(name)  # the most recently used last
        return True

    def _slot_action(self, action: str, name: str) -> dict[str, Any]:
        """The server's answer to saving or restoring the slot as ``name`` ({} when it failed)."""
        try:
            return dict(self._http(f"/slots/0?action={action}", {"filename": name}) or {})
        except (RuntimeError, OSError):
            return {}

    def _forget(self, name: str) -> None:
        self._files.pop(name, None)
        Path(self.folder, name).unlink(missing_ok=True)

    def close(self) -> None:
        """Delete the folder and its files (safe to call twice)."""
        self._remove()
        self._files = {}
