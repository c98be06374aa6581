"""The trace file survives a killed writer: the torn tail is cut when it is opened again, every complete
line reads back, and the next record is whole."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

from cts_dataset.log import LogError
from cts_dataset.models.base import ChatRequest, ChatResponse
from cts_dataset.models.trace import Trace, TraceWriter, read_traces
from tests.conftest import REPO

WRITER = """
import sys
from cts_dataset.models.base import ChatRequest, ChatResponse
from cts_dataset.models.trace import Trace, TraceWriter

writer = TraceWriter(sys.argv[1])
n = 0
while True:  # until killed
    request = ChatRequest.of([{"role": "user", "content": f"question {n} " + "x" * 3000}], role="clarifier")
    writer.write([Trace.of(request, ChatResponse(text=f"answer {n}"), "scripted", f"key{n}")])
    n += 1
"""


def trace(n: int, **response) -> Trace:
    request = ChatRequest.of([{"role": "user", "content": f"question {n}"}], role="judge", tag=str(n))
    return Trace.of(request, ChatResponse(**{"text": f"answer {n}", **response}), "scripted", f"key{n}")


def test_a_killed_writer_leaves_a_file_that_resumes_cleanly(tmp_path):
    path = tmp_path / "calls.jsonl"
    child = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], cwd=REPO)
    try:
        deadline = time.monotonic() + 60
        while (not path.exists() or path.read_bytes().count(b"\n") < 20) and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
    data = path.read_bytes()
    if data.endswith(b"\n"):  # the kill fell between two writes: tear the last one as a kill mid-write does
        with path.open("ab") as handle:
            handle.write(b'{"time": 1.0, "role": "clarifier", "messages": [{"role": "user", "content": "quest')
    complete = path.read_bytes().count(b"\n")
    writer = TraceWriter(path)  # the resumed run opens the file again
    assert path.read_bytes().endswith(b"\n"), "the torn tail is cut on open"
    writer.write([trace(10_000)])
    writer.close()
    traces = read_traces(path)
    assert len(traces) == complete + 1
    assert [t.text for t in traces[:-1]] == [f"answer {n}" for n in range(complete)]
    assert traces[-1].text == "answer 10000" and traces[-1].tag == "10000", "the next record is whole"
    for line in path.read_text().splitlines():
        json.loads(line)


def test_a_failed_request_is_traced_with_its_error(tmp_path):
    writer = TraceWriter(tmp_path / "calls.jsonl")
    failed = ChatResponse.failure("openai:m: http://127.0.0.1:1/v1 answered HTTP 400: too long", model="openai:m")
    writer.write([trace(1), Trace.of(ChatRequest.of([{"role": "user", "content": "q"}]), failed, "openai:m")])
    writer.close()
    ok, bad = read_traces(tmp_path / "calls.jsonl")
    assert ok.error == "" and bad.error.endswith("HTTP 400: too long") and bad.text == "" and bad.finish_reason == "error"


def test_a_corrupt_middle_line_is_reported_never_skipped(tmp_path):
    path = tmp_path / "calls.jsonl"
    good = trace(1).to_json()
    path.write_text(f"{good}\n{{not json\n{good}\n")
    with pytest.raises(LogError, match=r"calls.jsonl:2"):
        read_traces(path)


def test_traces_read_while_another_process_writes(tmp_path):
    path = tmp_path / "calls.jsonl"
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time\nfrom cts_dataset.models.trace import TraceWriter\n"
        "TraceWriter(sys.argv[1])\nprint('ready', flush=True)\ntime.sleep(60)\n"), str(path)],
        cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        with path.open("a") as handle:  # the writer's lines, the last one still being written
            handle.write(trace(1).to_json() + "\n" + trace(2).to_json()[:40])
        assert [t.tag for t in read_traces(path)] == ["1"]
        with pytest.raises(LogError, match="another process"):
            TraceWriter(path)
    finally:
        holder.kill()
        holder.wait(timeout=30)
    # Reading here takes the lock only while it reads: another process may write the file next.
    assert [t.tag for t in read_traces(path)] == ["1"]
    code = "import sys\nfrom cts_dataset.models.trace import TraceWriter\nTraceWriter(sys.argv[1]).close()"
    later = subprocess.run([sys.executable, "-c", code, str(path)], cwd=REPO, capture_output=True, text=True,
                           check=False)
    assert later.returncode == 0, later.stderr
