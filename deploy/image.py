"""Build Croupier's container image (deploy/Dockerfile) and smoke-test it.

`make image` runs this. The builder is podman (Debian's package: no daemon),
else buildah, else docker when its engine answers. The base image is
$CROUPIER_IMAGE_BASE if set, else Docker Hub's python:3.11-slim-bookworm if it
can be pulled, else one made here from Debian's packages with debootstrap
(`localhost/croupier-base:bookworm`, made once, about a minute).

The smoke test runs the image as its own entrypoint does (`croupier serve`,
uid 10001, plaintext gRPC on a free port of the host's network), waits for
grpc.health.v1 to answer SERVING, checks that every worker logged
`protobuf_backend: upb`, that the browser port serves the web table and a
Connect call, then stops it (SIGTERM) and expects exit code 0.
See deploy/README.md, "Container image".
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
HUB_BASE = "docker.io/library/python:3.11-slim-bookworm"
LOCAL_BASE = "localhost/croupier-base:bookworm"
CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")


def run(cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    print("+", " ".join(cmd), flush=True)
    return subprocess.run(cmd, text=True, check=False, **kwargs)


def builder() -> str:
    for tool in ("podman", "buildah"):
        if shutil.which(tool):
            return tool
    if shutil.which("docker") and run(["docker", "info"], capture_output=True).returncode == 0:
        return "docker"
    sys.exit("no image builder: install podman (apt-get install podman runc) or buildah")


def runtime_flags(tool: str) -> list[str]:
    """Flags for containers started by podman or buildah on machines like this
    one: crun refuses cgroups in hybrid mode (runc copes), and the container
    may not raise its rlimits above ours (no CAP_SYS_RESOURCE), where podman
    asks for more by default."""
    if tool == "docker":
        return []
    flags = ["--runtime", "runc"] if shutil.which("runc") else []
    for name, limit in (("nofile", resource.RLIMIT_NOFILE), ("nproc", resource.RLIMIT_NPROC)):
        soft = min(resource.getrlimit(limit)[0], 16384)  # more was refused here
        flags += ["--ulimit", f"{name}={soft}:{soft}"]
    return flags


def image_exists(tool: str, name: str) -> bool:
    verb = ["image", "exists"] if tool == "podman" else ["inspect", "--type", "image"]
    return run([tool, *verb, name], capture_output=True).returncode == 0


def base_image(tool: str) -> str:
    if os.environ.get("CROUPIER_IMAGE_BASE"):
        return os.environ["CROUPIER_IMAGE_BASE"]
    if image_exists(tool, HUB_BASE) or run([tool, "pull", HUB_BASE]).returncode == 0:
        return HUB_BASE
    if image_exists(tool, LOCAL_BASE):
        return LOCAL_BASE
    print(f"{HUB_BASE} cannot be pulled: making {LOCAL_BASE} with debootstrap", flush=True)
    if not shutil.which("debootstrap"):
        sys.exit("debootstrap is missing (apt-get install debootstrap)")
    with tempfile.TemporaryDirectory(prefix="croupier-rootfs-", dir="/var/tmp") as rootfs:
        packages = "python3,python3-venv,ca-certificates"
        made = run(
            ["debootstrap", "--variant=minbase", f"--include={packages}", "bookworm", rootfs]
        )
        if made.returncode != 0:
            sys.exit("debootstrap failed")
        for junk in ("var/cache/apt/archives", "var/lib/apt/lists"):
            for path in (Path(rootfs) / junk).glob("*"):
                if path.is_file():
                    path.unlink()
        tar = subprocess.Popen(["tar", "-C", rootfs, "-c", "."], stdout=subprocess.PIPE)
        imported = subprocess.run(
            [tool, "import", "--change", 'CMD ["/bin/bash"]', "-", LOCAL_BASE],
            stdin=tar.stdout,
            check=False,
        )
        if tar.wait() != 0 or imported.returncode != 0:
            sys.exit(f"could not import {rootfs} as {LOCAL_BASE}")
    return LOCAL_BASE


def build(tool: str, tag: str) -> None:
    base = base_image(tool)
    cmd = [tool, "build"] if tool != "buildah" else [tool, "bud"]
    cmd += ["--network", "host", "--build-arg", f"BASE={base}", "-f", str(DOCKERFILE), "-t", tag]
    if CA_BUNDLE.is_file():  # a network that intercepts TLS: pip trusts its CA
        cmd += ["--secret", f"id=pip-ca,src={CA_BUNDLE}"]
    cmd += runtime_flags(tool) if tool != "docker" else []
    if run([*cmd, str(ROOT)]).returncode != 0:
        sys.exit("image build failed")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def smoke_test(tool: str, tag: str, workers: int = 2) -> None:
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    if tool == "buildah":
        tool = "podman" if shutil.which("podman") else sys.exit("the smoke test needs podman")
    port, web_port = free_port(), free_port()
    name = f"croupier-smoke-{os.getpid()}"
    started = run(
        [tool, "run", "-d", "--name", name, "--network", "host", *runtime_flags(tool),
         "-e", f"CROUPIER_PORT={port}", "-e", f"CROUPIER_WEB_PORT={web_port}",
         "-e", "CROUPIER_METRICS_PORT=0",
         "-e", f"CROUPIER_WORKERS={workers}", tag],
        capture_output=True,
    )  # fmt: skip
    if started.returncode != 0:
        sys.exit(f"the image did not start: {started.stderr.strip()}")
    try:
        began = time.monotonic()
        status = None
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            health = health_pb2_grpc.HealthStub(channel)
            while time.monotonic() - began < 30:
                try:
                    status = health.Check(health_pb2.HealthCheckRequest(), timeout=1).status
                    if status == health_pb2.HealthCheckResponse.SERVING:
                        break
                except grpc.RpcError:
                    time.sleep(0.2)
        seconds = time.monotonic() - began
        if status != health_pb2.HealthCheckResponse.SERVING:
            sys.exit(f"no SERVING health within 30 s: {logs(tool, name)}")
        print(f"health SERVING after {seconds:.1f} s on port {port}")
        user = run([tool, "exec", name, "id", "-u"], capture_output=True).stdout.strip()
        if user != "10001":
            sys.exit(f"the server runs as uid {user!r}, not 10001")
        deadline = time.monotonic() + 10
        while True:
            events = [json.loads(line) for line in logs(tool, name).splitlines() if line[:1] == "{"]
            backends = [e["protobuf_backend"] for e in events if e["event"] == "worker_listening"]
            if len(backends) >= workers or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        if backends != ["upb"] * workers:
            sys.exit(f"protobuf backends of the workers: {backends} (upb expected)")
        print(f"{workers} workers, uid 10001, protobuf_backend upb")
        web_smoke_test(web_port)
        run([tool, "stop", "-t", "20", name], capture_output=True)
        code = run([tool, "inspect", name, "--format", "{{.State.ExitCode}}"], capture_output=True)
        if code.stdout.strip() != "0":
            sys.exit(f"exit code {code.stdout.strip()} after SIGTERM: {logs(tool, name)}")
        print("SIGTERM: drained and exited 0\nimage smoke test passed")
    finally:
        run([tool, "rm", "-f", name], capture_output=True)


def web_smoke_test(port: int) -> None:
    """The browser port: the web table at / and a Connect call."""
    import urllib.request

    base = f"http://127.0.0.1:{port}"
    with urllib.request.urlopen(f"{base}/", timeout=10) as page:
        if b"<html" not in page.read().lower():
            sys.exit("the browser port does not serve the web table at /")
    call = urllib.request.Request(
        f"{base}/croupier.v1.CroupierService/ListGames",
        data=b"{}",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(call, timeout=10) as answer:
        games = json.load(answer)["games"]
    print(f"browser port {port}: the web table at /, ListGames over Connect: {len(games)} games")


def logs(tool: str, name: str) -> str:
    return run([tool, "logs", name], stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tag", default="localhost/croupier:dev")
    parser.add_argument("--no-build", action="store_true", help="smoke-test the tag as it is")
    parser.add_argument("--no-test", action="store_true", help="build only")
    args = parser.parse_args()
    tool = builder()
    if not args.no_build:
        if not (ROOT / "clients" / "web" / "dist" / "index.html").exists():
            sys.exit("clients/web/dist is not built: run `make web` (make image does, with Node)")
        build(tool, args.tag)
    if not args.no_test:
        smoke_test(tool, args.tag)


if __name__ == "__main__":
    main()
