"""Where independent games are played: in this process, in several local processes, or on a Dask
cluster. Every batch of games is a pure function of its inputs (the game, its seeds, the policy),
so the same seeds give the same results whichever runs them; results come back in the order the
batches were given and the caller merges them in that order.

`--workers N` picks local processes; `--cluster local` starts a Dask cluster on this machine and
`--cluster ADDRESS` (e.g. tcp://10.0.0.5:8786) joins a running scheduler. Dask is an optional
extra (`pip install 'cardgen[cluster]'`).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import re
import signal
import threading
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

# Signals that stop a run as Ctrl-C does.
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def chunks(count: int, parts: int, most: int = 2000) -> list[range]:
    """`range(count)` cut into about `parts` runs of consecutive indices (at least four per worker so
    a slow batch does not hold the others up), each at most `most` long."""
    if count <= 0:
        return []
    size = max(1, min(most, -(-count // max(1, parts * 4))))
    return [range(start, min(count, start + size)) for start in range(0, count, size)]


@contextmanager
def signals_held():
    """Ctrl-C and the stop signals wait until the block is done (a pool's workers all started, a
    set of renames all made)."""
    held = {signal.SIGINT, *STOP_SIGNALS}
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextmanager
def _handled(numbers, handler):
    """`handler` for the signals `numbers` inside the block, the previous handlers after it; in the
    main thread only (Python runs handlers there and nowhere else)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.signal(number, handler) for number in numbers}
    try:
        yield
    finally:
        for number, before in previous.items():
            signal.signal(number, before)


@contextmanager
def stops_interrupt():
    """SIGTERM and SIGHUP stop the run as Ctrl-C does (`cardgen.errors.Interrupted`, a
    KeyboardInterrupt), instead of ending the process on the spot: a pool of workers is ended with
    it, and a staging folder removed."""
    from cardgen.errors import Interrupted

    def stop(signum, frame):
        raise Interrupted(signum)

    with _handled(STOP_SIGNALS, stop):
        yield


@contextmanager
def stops_deferred():
    """Ctrl-C and the stop signals that arrive inside the block take effect at its end, as a
    KeyboardInterrupt (`Interrupted` for a stop): for a start-up that must not be cut half-way (a
    Dask cluster interrupted while it starts cannot be closed, and says so in a traceback at exit).
    Unlike `signals_held`, no signal mask is set, so no thread or process started inside inherits one."""
    from cardgen.errors import Interrupted

    received: list[int] = []
    with _handled((signal.SIGINT, *STOP_SIGNALS), lambda signum, frame: received.append(signum)):
        yield
    if received:
        raise KeyboardInterrupt() if received[0] == signal.SIGINT else Interrupted(received[0])


def leave_signals_to_the_parent() -> None:
    """In a worker: Ctrl-C (sent to the whole process group) is the parent's to handle, and the
    parent's stop ends a worker at once, with no traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in STOP_SIGNALS:
        signal.signal(number, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, *STOP_SIGNALS})


def local_pool(workers: int, method: str = "fork"):
    """A pool of `workers` local processes that leave Ctrl-C and the stop signals to this one: an
    interrupted run prints one line, not a traceback from every worker."""
    with signals_held():  # a stop that arrives while the workers start waits until they have
        return multiprocessing.get_context(method).Pool(workers, initializer=leave_signals_to_the_parent)


_shared: tuple = ()  # (function, items) of the running `forked_map`, inherited by its workers


def _call_shared(index: int):
    function, items = _shared
    return function(items[index])


def forked_map(function: Callable[[Any], Any], items: Sequence[Any], workers: int) -> list[Any]:
    """`[function(item) for item in items]` on up to `workers` forked processes, which inherit the
    items instead of receiving copies (a game's content need not travel); here, one after another,
    where processes cannot be forked or one is enough. The results come back in order."""
    global _shared
    items = list(items)
    workers = min(workers, len(items))
    if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return [function(item) for item in items]
    previous, _shared = _shared, (function, items)
    try:
        with local_pool(workers) as pool:
            return pool.map(_call_shared, range(len(items)), chunksize=1)
    finally:
        _shared = previous


class ClusterUnavailable(RuntimeError):
    """The cluster extra is not installed or the scheduler cannot be reached."""


@dataclass
class Runner:
    """Maps a function over tasks: here, in `workers` local processes, or on a Dask cluster. Each
    `map` starts its own pool (or cluster connection), unless it runs inside `held()`."""

    workers: int = 1
    cluster: str | None = None
    # Told the weight of each task as it finishes (the games it played), and of work found done
    # already (`advance`): a progress bar's count.
    progress: Callable[[int], None] | None = field(default=None, repr=False, compare=False)
    _held: Any = field(default=None, repr=False, compare=False)  # what `held()` keeps: an ExitStack, then the pool

    def map(self, function: Callable[[Any], Any], tasks: Sequence[Any],
            weights: Sequence[int] | None = None) -> list[Any]:
        """`[function(task) for task in tasks]`, in order; `progress(weights[k])` as task k finishes."""
        tasks = list(tasks)
        local = self.cluster is None
        if local and (self.workers <= 1 or len(tasks) <= 1):
            return self._collect(map(function, tasks), weights)
        if self._held is not None:
            stack, pool = self._held
            if pool is None:  # the first map inside `held()` starts what the others use
                pool = stack.enter_context(self._start(self.workers))
                self._held = stack, pool
            return self._run(pool, function, tasks, weights)
        with self._start(min(self.workers, len(tasks))) as pool:
            return self._run(pool, function, tasks, weights)

    def advance(self, weight: int) -> None:
        if self.progress is not None and weight:
            self.progress(weight)

    def _collect(self, results, weights: Sequence[int] | None) -> list:
        done = []
        for k, result in enumerate(results):
            done.append(result)
            if weights is not None:
                self.advance(weights[k])
        return done

    def _start(self, size: int):
        """A pool of `size` local processes, or a Dask client."""
        if self.cluster is not None:
            return _dask_client(self.cluster, self.workers)
        return local_pool(size, _start_method())

    def _run(self, pool, function, tasks: list, weights: Sequence[int] | None) -> list:
        if self.cluster is not None:
            from dask.distributed import as_completed

            # pure=False: two equal tasks are still two batches of games to play and count.
            futures = pool.map(function, tasks, pure=False)
            if weights is not None:
                place = {future.key: k for k, future in enumerate(futures)}
                for future in as_completed(futures):  # counted as they finish, fetched at once below
                    self.advance(weights[place[future.key]])
            return pool.gather(futures)
        return self._collect(pool.imap(function, tasks, chunksize=1), weights)

    @contextmanager
    def held(self):
        """One pool of local processes, or one cluster connection (a local cluster started once),
        for every `map` inside the block, started by the first map that needs one: a sweep maps
        once per chunk, a report once per player count and reading."""
        if self._held is not None:
            yield self
            return
        with ExitStack() as stack:
            self._held = stack, None
            try:
                yield self
            finally:
                self._held = None

    @property
    def label(self) -> str:
        if self.cluster is not None:
            return f"Dask cluster {self.cluster}"
        return f"{self.workers} process{'es' if self.workers != 1 else ''}"


def _start_method() -> str:
    # fork where the platform has it: the workers start with the content already loaded.
    return "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


CLUSTER_SCHEMES = ("tcp", "tls", "ws", "wss")
_HOST_PORT = re.compile(r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(?P<port>[0-9]{1,5})")


def cluster_address(text: str) -> str:
    """`local`, or a Dask scheduler's address as SCHEME://HOST:PORT (tcp when no scheme is given;
    an IPv6 host in brackets), written out in full; `ClusterUnavailable` says what is wrong with
    any other text."""
    if text == "local":
        return text
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if scheme not in CLUSTER_SCHEMES:
        raise ClusterUnavailable(f"{text!r}: a scheduler's address starts with {', '.join(s + '://' for s in CLUSTER_SCHEMES)} "
                                 "or is 'local'")
    found = _HOST_PORT.fullmatch(rest)
    if found is None or not 0 < int(found["port"]) < 65536:
        raise ClusterUnavailable(f"{text!r}: give the scheduler as HOST:PORT, e.g. tcp://10.0.0.5:8786 "
                                 "(an IPv6 host in brackets: tcp://[::1]:8786), or 'local'")
    return f"{scheme}://{found['host']}:{int(found['port'])}"


@contextmanager
def _dask_client(address: str, workers: int):
    """A Dask client: of a cluster of `workers` processes started here (`local`, stopped with the
    client), or of the running scheduler at `address`."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ClusterUnavailable("the cluster extra is not installed: pip install 'cardgen[cluster]'") from None
    if address == "local":
        with ExitStack() as stack:
            with stops_deferred():  # a stop while the cluster starts takes effect once it can be closed
                # The scheduler's web server on a free port of this machine's loopback (the usual
                # port, 8787, is taken when two runs share a machine, and Dask warns of it); the
                # workers log only errors (a run stopped mid-task would otherwise print Dask's
                # warning for every task it cancels).
                cluster = stack.enter_context(LocalCluster(
                    n_workers=max(1, workers), threads_per_worker=1, processes=True, silence_logs=logging.ERROR,
                    dashboard_address="127.0.0.1:0", host="127.0.0.1"))
                client = stack.enter_context(Client(cluster))
            yield client
        return
    address = cluster_address(address)
    try:
        client = Client(address, timeout="10s")
    except Exception as exc:  # noqa: BLE001 - whatever Dask finds wrong with the scheduler, said in one line
        raise ClusterUnavailable(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    with client:
        yield client


__all__ = ["STOP_SIGNALS", "ClusterUnavailable", "Runner", "chunks", "cluster_address", "default_workers", "forked_map", "local_pool",
           "signals_held", "stops_deferred", "stops_interrupt"]
