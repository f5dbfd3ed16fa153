"""Which backend a ``--cluster`` option names."""

from __future__ import annotations

from tilebag.batch.backend import Backend, ClusterError
from tilebag.batch.local import LocalBackend


def backend_for(cluster: str | None, workers: int | None = None) -> Backend:
    """The backend a ``--cluster`` option names: ``None`` or ``local`` for
    processes on this machine, ``auto`` to start a local Ray, or
    ``ray://HOST:PORT`` to join a running Ray cluster.

    :raises ClusterError: when Ray is needed and not installed, or for a
        value that names no backend.

    >>> backend_for(None, 1).name
    'local'
    >>> backend_for("nowhere")
    Traceback (most recent call last):
    ...
    tilebag.batch.backend.ClusterError: --cluster nowhere: expected local, auto or ray://HOST:PORT
    """
    if cluster is None or cluster == "local":
        return LocalBackend(workers)
    if cluster != "auto" and not cluster.startswith("ray://"):
        raise ClusterError(f"--cluster {cluster}: expected local, auto or ray://HOST:PORT")
    from tilebag.batch.ray_cluster import RayBackend  # Ray itself is imported only when a run starts

    return RayBackend(None if cluster == "auto" else cluster, workers)
