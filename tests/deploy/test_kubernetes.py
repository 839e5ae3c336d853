"""deploy/kubernetes rendered by kustomize and validated offline.

Every overlay is rendered by kustomize (.venv/bin/kustomize, which `make test`
installs with `go install` where no kubectl carries kustomize v5, else
`kubectl kustomize`), every built-in object is
validated against the Kubernetes JSON schemas that PyPI's kubernetes-validate
ships (strict: unknown fields fail), for the oldest and newest Kubernetes the
manifests claim, and the numbers that must agree are checked: workers from the
CPU limit, drain = readiness period, preStop and termination grace covering
the drain, selectors that match the pods."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
KUBE = ROOT / "deploy" / "kubernetes"
OVERLAYS = sorted(p.parent.name for p in (KUBE / "overlays").glob("*/kustomization.yaml"))
# The preStop sleep action needs 1.30; the newest schemas the package ships.
K8S_VERSIONS = ("1.30.0", "1.37.0")
SUPERVISOR_MARGIN = 5  # supervisor.py waits drain + grace + 5 s for its workers


def _kustomize() -> list[str]:
    local = ROOT / ".venv" / "bin" / "kustomize"
    if local.exists():
        return [str(local), "build"]
    if shutil.which("kustomize"):
        return ["kustomize", "build"]
    if shutil.which("kubectl"):
        return ["kubectl", "kustomize"]
    pytest.skip("no kustomize: `make test` installs it with `go install` (needs Go)")


def render(overlay: str) -> list[dict[str, Any]]:
    out = subprocess.run(
        [*_kustomize(), str(KUBE / "overlays" / overlay)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    return [doc for doc in yaml.safe_load_all(out) if doc]


@pytest.fixture(scope="module", params=OVERLAYS)
def rendered(request: pytest.FixtureRequest) -> tuple[str, list[dict[str, Any]]]:
    return request.param, render(request.param)


def one(objects: list[dict[str, Any]], kind: str, name: str | None = None) -> dict[str, Any]:
    found = [
        o for o in objects if o["kind"] == kind and (name is None or o["metadata"]["name"] == name)
    ]
    assert len(found) == 1, f"{kind} {name or ''}: {len(found)} found"
    return found[0]


def test_overlays_exist() -> None:
    assert {"dev", "prod"} <= set(OVERLAYS)


def test_objects_valid_against_kubernetes_schemas(
    rendered: tuple[str, list[dict[str, Any]]],
) -> None:
    overlay, objects = rendered
    kinds = sorted(o["kind"] for o in objects)
    for required in ("Deployment", "HorizontalPodAutoscaler", "PodDisruptionBudget", "Service"):
        assert required in kinds, f"{overlay}: no {required}"
    for obj in objects:
        if obj["apiVersion"] == "monitoring.coreos.com/v1":
            continue  # a CRD: no built-in schema; test_monitoring checks it
        for version in K8S_VERSIONS:
            try:
                kubernetes_validate.validate(obj, version, strict=True)
            except kubernetes_validate.ValidationError as error:
                pytest.fail(
                    f"{overlay}: {obj['kind']}/{obj['metadata']['name']} invalid for "
                    f"Kubernetes {version}: {error.message} at {list(error.path)}"
                )


def test_deployment_numbers_agree(rendered: tuple[str, list[dict[str, Any]]]) -> None:
    overlay, objects = rendered
    deployment = one(objects, "Deployment", "croupier")
    pod = deployment["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    env = {e["name"]: e for e in container["env"]}

    # Workers: the CPU limit (rounded up), never the node's cores.
    assert "cpu" in container["resources"]["limits"], f"{overlay}: no CPU limit"
    source = env["CROUPIER_WORKERS"]["valueFrom"]["resourceFieldRef"]
    assert source["resource"] == "limits.cpu"
    assert source["containerName"] == container["name"]
    assert str(source.get("divisor", "1")) == "1"

    # Native gRPC probes on the serving port.
    port = next(p["containerPort"] for p in container["ports"] if p["name"] == "grpc")
    for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
        assert container[probe]["grpc"]["port"] == port, f"{overlay}: {probe}"

    # Drain = the time the readiness probe needs to see NOT_SERVING.
    readiness = container["readinessProbe"]
    readiness_seconds = readiness.get("periodSeconds", 10) * readiness.get("failureThreshold", 3)
    drain = float(env["CROUPIER_DRAIN"]["value"])
    grace = float(env["CROUPIER_GRACE"]["value"])
    assert drain == readiness_seconds, f"{overlay}: drain {drain} s, readiness {readiness_seconds}"
    pre_stop = container["lifecycle"]["preStop"]["sleep"]["seconds"]
    assert pre_stop == drain
    needed = pre_stop + drain + grace + SUPERVISOR_MARGIN
    assert pod["terminationGracePeriodSeconds"] >= needed, f"{overlay}: grace < {needed} s"

    # Non-root, as the image (deploy/Dockerfile: USER 10001).
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] == 10001
    assert container["securityContext"]["allowPrivilegeEscalation"] is False


def test_services_autoscaler_and_budget_select_the_pods(
    rendered: tuple[str, list[dict[str, Any]]],
) -> None:
    overlay, objects = rendered
    deployment = one(objects, "Deployment", "croupier")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    container_ports = {
        p["name"] for p in deployment["spec"]["template"]["spec"]["containers"][0]["ports"]
    }

    def selects(selector: dict[str, str]) -> bool:
        return bool(selector) and all(labels.get(k) == v for k, v in selector.items())

    headless = one(objects, "Service", "croupier-headless")
    assert headless["spec"]["clusterIP"] == "None"
    cluster_ip = one(objects, "Service", "croupier")
    assert cluster_ip["spec"].get("type", "ClusterIP") == "ClusterIP"
    assert cluster_ip["spec"].get("clusterIP") != "None"
    for service in (headless, cluster_ip):
        assert selects(service["spec"]["selector"]), f"{overlay}: {service['metadata']['name']}"
        for port in service["spec"]["ports"]:
            assert port["targetPort"] in container_ports

    hpa = one(objects, "HorizontalPodAutoscaler", "croupier")
    assert hpa["spec"]["scaleTargetRef"]["name"] == deployment["metadata"]["name"]
    assert (
        hpa["spec"]["minReplicas"] <= deployment["spec"]["replicas"] <= hpa["spec"]["maxReplicas"]
    )
    pdb = one(objects, "PodDisruptionBudget", "croupier")
    assert selects(pdb["spec"]["selector"]["matchLabels"])
    assert selects(deployment["spec"]["selector"]["matchLabels"])


def test_monitoring() -> None:
    """prod: a ServiceMonitor on the headless Service's metrics port (one
    target per pod) and the Grafana dashboard, whose queries use only the
    series the server exports."""
    objects = render("prod")
    monitor = one(objects, "ServiceMonitor", "croupier")
    service = one(objects, "Service", "croupier-headless")
    selector = monitor["spec"]["selector"]["matchLabels"]
    assert all(service["metadata"]["labels"].get(k) == v for k, v in selector.items())
    others = [
        s["metadata"]["name"]
        for s in objects
        if s["kind"] == "Service"
        and s is not service
        and all(s["metadata"]["labels"].get(k) == v for k, v in selector.items())
    ]
    assert not others, f"the ServiceMonitor would scrape every pod twice: {others}"
    (endpoint,) = monitor["spec"]["endpoints"]
    assert endpoint["port"] in {p["name"] for p in service["spec"]["ports"]}

    board = one(objects, "ConfigMap", "croupier-grafana-dashboard")
    assert board["metadata"]["labels"]["grafana_dashboard"] == "1"
    dashboard = json.loads(board["data"]["croupier.json"])
    metrics_py = (ROOT / "server" / "croupier" / "service" / "metrics.py").read_text()
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    assert exprs
    for expr in exprs:
        series = [w for w in expr.replace("(", " ").replace("{", " ").split() if "_" in w]
        exported = [s for s in series if s.startswith(("grpc_server_", "croupier_"))]
        for name in exported:
            base = name.removesuffix("_bucket")
            assert f'"{base}"' in metrics_py, f"the dashboard asks for {name}, not exported"
