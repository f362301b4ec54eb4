"""A dump.rdb that a real Redis wrote (Debian's redis-server, started here on a free port with its files in a
temporary folder), holding the kinds of keys a real database has (strings, small and large hashes, lists, sets
of integers and of strings, small and large sorted sets, keys with an expiry), with RedisBloom filters put in
as ``MBbloom--`` values: Redis without the module cannot write one, so the filter values are laid out from
RedisBloom's ``BFRdbSave`` (tests/formats/test_redisbloom_users_dumps.py) and inserted before the end byte, the file's
CRC64 made again. The reader must walk every real key and find each filter, answering as the RedisBloom server
did. Skipped where redis-server is not installed (.ci/run installs it)."""

from __future__ import annotations

import shutil
import socket
import struct
import subprocess
import time

import pytest

from bloomviz import formats
from bloomviz.formats import redisbloom_dumps as dumps
from test_redisbloom_users_dumps import answers_match, bf_rdb_save, rdb_string, server_chunks

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None or shutil.which("redis-cli") is None,
                                reason="redis-server is not installed (Debian package redis-server)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cli(port, *args):
    return subprocess.run(["redis-cli", "-p", str(port), *args], capture_output=True, text=True, timeout=30,
                          check=True).stdout


@pytest.fixture(scope="module")
def real_rdb(tmp_path_factory):
    where = tmp_path_factory.mktemp("redis")
    port = free_port()
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", str(where),
                               "--save", "", "--appendonly", "no", "--dbfilename", "dump.rdb"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if cli(port, "PING").strip() == "PONG":
                    break
            except subprocess.CalledProcessError:
                pass
            time.sleep(0.05)
        cli(port, "SET", "greeting", "hello " * 20)
        cli(port, "SET", "counter", "12345")
        cli(port, "HSET", "user:1", "name", "Ana", "town", "Varaždin")
        cli(port, "HSET", "big:hash", *[str(x) for i in range(300) for x in (f"f{i}", f"value {i}")])
        cli(port, "RPUSH", "queue", *[f"job-{i}" for i in range(50)])
        cli(port, "SADD", "ids", *[str(i) for i in range(40)])
        cli(port, "SADD", "tags", "red", "green", "blue")
        cli(port, "SADD", "big:set", *[f"member-{i}" for i in range(600)])
        cli(port, "ZADD", "board", "1.5", "a", "2", "b")
        cli(port, "ZADD", "big:board", *[x for i in range(300) for x in (str(i / 3), f"p{i}")])
        cli(port, "SET", "session", "x", "EX", "3600")
        cli(port, "SELECT", "0")
        cli(port, "SAVE")
        cli(port, "SHUTDOWN", "NOSAVE")
        server.wait(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    return (where / "dump.rdb").read_bytes()


def with_filters(rdb: bytes, named) -> bytes:
    body = rdb[:-9]           # the end byte and the CRC64
    assert rdb[-9] == 0xFF
    for name, pairs in named:
        body += b"\x07" + rdb_string(name.encode()) + bf_rdb_save(pairs)
    body += b"\xff"
    return body + struct.pack("<Q", dumps.crc64(body))


def test_the_real_rdb_is_walked_and_its_filters_found(real_rdb, tmp_path):
    assert real_rdb.startswith(b"REDIS") and dumps.crc64(real_rdb[:-8]) == int.from_bytes(real_rdb[-8:], "little")
    path = tmp_path / "dump.rdb"
    path.write_bytes(with_filters(real_rdb, [("bf:users", server_chunks("redisbloom-scaling")),
                                             ("bf:old", server_chunks("redisbloom-legacy32"))]))
    assert formats.detect(path) == "redisbloom"
    users, old = formats.open_filters(path)
    assert users.label.startswith("bf:users") and old.label.startswith("bf:old")
    answers_match(users, "redisbloom-scaling")
    answers_match(old, "redisbloom-legacy32")


def test_a_real_rdb_without_filters_says_so(real_rdb, tmp_path):
    path = tmp_path / "dump.rdb"
    path.write_bytes(real_rdb)
    with pytest.raises(formats.ForeignFormatError, match="holds no MBbloom-- value"):
        formats.open_filters(path, "redisbloom")
