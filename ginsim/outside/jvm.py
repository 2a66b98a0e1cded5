"""The JVMs behind Java players: the host program, compiled once, and its processes.

ginsim ships ``java/GinsimHost.java`` (its own code) and compiles it on first use with the
user's ``javac`` into ``~/.cache/ginsim/java/<hash of the source and the javac version>``.
Each worker process keeps one long-lived JVM per classpath and seat, started with the
user's classpath; a request is one line on its stdin, an answer one line on its stdout,
read with a hard deadline. A JVM that misses a deadline is killed; the next hand starts a
fresh one.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

HOST_CLASS = "ginsimhost.GinsimHost"
START_TIMEOUT = 60.0
"""Seconds a JVM may take to start and load the framework."""


class JavaError(Exception):
    """The Java side failed: no JDK, a bad classpath, a player that threw, hung or died."""


@dataclass(frozen=True)
class Toolchain:
    java: str
    javac: str
    version: str  # ``javac -version``


def _tool(name: str) -> str | None:
    home = os.environ.get("JAVA_HOME")
    if home:
        candidate = Path(home) / "bin" / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which(name)


@lru_cache(maxsize=1)
def toolchain() -> Toolchain:
    """The JDK to use (``JAVA_HOME``, else the PATH); JavaError if there is none."""
    java, javac = _tool("java"), _tool("javac")
    if javac is None or java is None:
        missing = "javac" if javac is None else "java"
        raise JavaError(
            f"no {missing} found: Java players need a JDK (e.g. apt-get install default-jdk-headless, or set JAVA_HOME)"
        )
    try:
        out = subprocess.run([javac, "-version"], capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.SubprocessError) as e:
        raise JavaError(f"cannot run {javac}: {e}") from None
    return Toolchain(java, javac, (out.stdout + out.stderr).strip())


def host_source() -> bytes:
    return (files("ginsim.outside") / "java" / "GinsimHost.java").read_bytes()


def cache_root() -> Path:
    base = os.environ.get("GINSIM_CACHE") or os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ginsim" / "java"


@lru_cache(maxsize=1)
def host_classes() -> Path:
    """The folder holding the compiled host (compiled now if this JDK has not yet)."""
    tools = toolchain()
    source = host_source()
    key = hashlib.sha256(source + b"\0" + tools.version.encode()).hexdigest()[:16]
    folder = cache_root() / key
    if (folder / "ginsimhost" / "GinsimHost.class").is_file():
        return folder
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix="build-", dir=folder.parent))
    except OSError as e:
        raise JavaError(f"cannot write the Java host's cache under {folder.parent}: {e.strerror or e}") from None
    src = work / "GinsimHost.java"
    src.write_bytes(source)
    out = subprocess.run(
        [tools.javac, "-nowarn", "-encoding", "UTF-8", "-d", str(work / "classes"), str(src)],
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        first = (out.stderr or out.stdout).strip().splitlines()[:1]
        raise JavaError(f"{tools.javac} could not compile ginsim's Java host: {' '.join(first)}")
    with contextlib.suppress(OSError):  # atomic: a parallel compile may have won
        os.replace(work / "classes", folder)
    shutil.rmtree(work, ignore_errors=True)
    return folder


def check_classpath(classpath: str) -> None:
    """JavaError naming the first entry of ``classpath`` that does not exist."""
    if not classpath:
        raise JavaError("the classpath is empty")
    for entry in classpath.split(os.pathsep):
        if entry.endswith("*"):
            entry = entry[:-1] or "."
        if entry and not Path(entry).expanduser().exists():
            raise JavaError(f"classpath entry {entry!r} does not exist")


def unescape(text: str) -> str:
    out = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            out.append("\n" if nxt == "n" else nxt)
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


class Jvm:
    """One host process: queue requests without answers, ask questions with a deadline."""

    def __init__(self, classpath: str) -> None:
        tools = toolchain()
        check_classpath(classpath)
        entries = [
            str(Path(e).expanduser().resolve()) if e and not e.endswith("*") else e for e in classpath.split(os.pathsep)
        ]
        log = os.environ.get("GINSIM_JAVA_OUTPUT")  # a file for the players' own output
        cmd = [
            tools.java,
            "-XX:+UseSerialGC",
            "-Xshare:auto",
            "-Djava.security.manager=allow",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "-cp",
            os.pathsep.join([str(host_classes()), *entries]),
            HOST_CLASS,
        ]
        if log:
            cmd.append("--keep-output")
        self._err = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 - lives with the process
        try:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._err)
        except OSError as e:
            raise JavaError(f"cannot start {tools.java}: {e}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        self._buf = b""
        self._queue: list[str] = []
        self.alive = True
        self.next_id = 0
        _LIVE.add(self)
        ready = self.ask("", START_TIMEOUT, "starting the JVM", send=False)
        if ready != "ready":
            self.close()
            text = unescape(ready[2:]).splitlines()[0] if ready.startswith("! ") else f"the Java host said {ready!r}"
            raise JavaError(text)

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    def queue(self, line: str) -> None:
        """A request without an answer: sent with the next question."""
        self._queue.append(line)

    def ask(self, line: str, timeout: float, what: str, send: bool = True) -> str:
        """Send the queued requests and ``line``; the answer line. JavaError (and the JVM
        killed) if no answer comes within ``timeout`` seconds or the JVM ends."""
        if not self.alive:
            raise JavaError("its JVM was stopped earlier")
        if send:
            self._queue.append(line)
            data = ("\n".join(self._queue) + "\n").encode()
            self._queue.clear()
            try:
                while data:
                    n = os.write(self._in, data)
                    data = data[n:]
            except OSError:
                return self._died(what)
        buf = self._buf
        nl = buf.find(b"\n")
        if nl < 0:
            deadline = _now() + timeout
            while nl < 0:
                left = deadline - _now()
                if left <= 0 or not select.select([self._out], [], [], left)[0]:
                    self.close()
                    raise JavaError(f"no answer from {what} within {timeout:g}s; its JVM was stopped")
                chunk = os.read(self._out, 1 << 16)
                if not chunk:
                    return self._died(what)
                start = len(buf)
                buf += chunk
                nl = buf.find(b"\n", start)
        self._buf = buf[nl + 1 :]
        return buf[:nl].decode("utf-8", "replace")

    def _died(self, what: str) -> str:
        code = self.proc.poll()
        self.close()
        status = f" (exit status {code})" if code is not None else ""
        raise JavaError(f"the JVM ended during {what}{status}")

    def close(self) -> None:
        """Stop the process now (its players are lost)."""
        if not self.alive:
            return
        self.alive = False
        _LIVE.discard(self)
        for key, jvm in list(_POOL.items()):
            if jvm is self:
                del _POOL[key]
        try:
            self.proc.kill()
            self.proc.wait(5)
        except (OSError, subprocess.SubprocessError):
            pass
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        if self._err is not subprocess.DEVNULL:
            self._err.close()  # type: ignore[union-attr]


def _now() -> float:
    return time.monotonic()


_POOL: dict[tuple[str, int], Jvm] = {}
_LIVE: set[Jvm] = set()


def jvm_for(classpath: str, seat: int) -> Jvm:
    """This process's JVM for a classpath and seat (two seats never share one, so one
    player's static fields cannot reach its opponent's)."""
    key = (classpath, seat)
    jvm = _POOL.get(key)
    if jvm is None or not jvm.alive:
        jvm = _POOL[key] = Jvm(classpath)
    return jvm


@atexit.register
def close_all() -> None:
    """Stop every JVM this process started."""
    for jvm in list(_LIVE):
        jvm.close()


def forget_inherited() -> None:
    """In a forked child: the JVMs it inherited are its parent's to use and stop; its own
    players get JVMs of its own."""
    _POOL.clear()
    _LIVE.clear()
