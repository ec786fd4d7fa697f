"""The operator's files (deploy/prometheus, deploy/grafana): Prometheus's config and alert rules
valid and their unit tests passing (promtool, `make promtool`), and every metric they and the
Grafana dashboard read one that GET /metrics exports, with labels it has."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from prometheus_client import REGISTRY
from prometheus_client.metrics import MetricWrapperBase

import petstore.metrics
from webhooks.metrics import WebhookCollector

ROOT = Path(__file__).resolve().parents[2]
PROMETHEUS = ROOT / "deploy" / "prometheus"
DASHBOARD = ROOT / "deploy" / "grafana" / "petstore.json"

# A metric's name in PromQL: not part of a longer name nor of a recording rule's (`a:b:c`).
METRIC = re.compile(r"(?<![\w:])(petstore_[a-zA-Z0-9_]+)(?![\w:])")
# A metric and its label matchers: `name{label="v", other=~"..."}`.
SELECTOR = re.compile(r"(?<![\w:])(petstore_[a-zA-Z0-9_]+)\s*\{([^}]*)\}")
MATCHER = re.compile(r"([a-zA-Z_]\w*)\s*(?:=~|!~|!=|=)\s*\"(?:[^\"\\]|\\.)*\"")
LABEL_VALUES = re.compile(r"^label_values\((.+),\s*(\w+)\)$")
# What the exposition adds to a family's name, by type (no `_created` in multiprocess mode).
SUFFIXES = {"counter": ["_total"], "histogram": ["_bucket", "_sum", "_count"], "gauge": [""]}


def promtool() -> str:
    found = shutil.which("promtool")
    if found:
        return found
    if Path("/usr/bin/promtool").is_file():
        return "/usr/bin/promtool"
    pytest.fail("promtool is missing: run `make promtool` (or: sudo apt-get install prometheus)")


def run_promtool(*args: str) -> None:
    result = subprocess.run(
        [promtool(), *args], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, f"promtool {' '.join(args)}:\n{result.stdout}{result.stderr}"


def test_the_scrape_config_is_valid() -> None:
    run_promtool("check", "config", "deploy/prometheus/prometheus.yml")


def test_the_alert_rules_are_valid() -> None:
    run_promtool("check", "rules", "deploy/prometheus/alerts.yml")


def test_the_alert_rules_pass_their_unit_tests() -> None:
    run_promtool("test", "rules", "deploy/prometheus/alerts_test.yml")


def test_every_alert_has_a_duration_a_severity_and_annotations() -> None:
    for rule in alert_rules():
        assert rule.get("for"), rule["alert"]
        assert rule.get("labels", {}).get("severity") in {"critical", "warning", "info"}, rule
        assert {"summary", "description"} <= set(rule.get("annotations", {})), rule["alert"]


def test_the_dashboard_queries_are_valid_promql(tmp_path: Path) -> None:
    """promtool parses each query, Grafana's variables given values as Grafana would."""
    variables = {"$__rate_interval": "1m", "$__range": "1h", "$route": ".*"}
    rules = []
    for number, expr in enumerate(dashboard_queries()):
        for variable, value in variables.items():
            expr = expr.replace(variable, value)
        assert "$" not in expr, f"a Grafana variable this test does not know: {expr}"
        rules.append({"record": f"dashboard:query_{number}", "expr": expr})
    path = tmp_path / "dashboard_rules.yml"
    path.write_text(yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}))
    run_promtool("check", "rules", str(path))


def test_the_dashboard_is_grafana_json() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["schemaVersion"] >= 39
    variables = {variable["name"] for variable in dashboard["templating"]["list"]}
    assert "datasource" in variables
    panels = list(all_panels(dashboard))
    ids = [panel["id"] for panel in panels]
    assert len(ids) == len(set(ids)), "panel ids must be unique"
    for panel in panels:
        if panel["type"] == "row":
            continue
        assert panel["datasource"]["uid"] == "${datasource}", panel["title"]
        assert panel["targets"], panel["title"]
        ref_ids = [target["refId"] for target in panel["targets"]]
        assert len(ref_ids) == len(set(ref_ids)), panel["title"]


@pytest.mark.django_db
def test_the_alerts_read_only_exported_metrics_and_labels() -> None:
    assert_exported([str(rule["expr"]) for rule in alert_rules()], exported())


@pytest.mark.django_db
def test_the_dashboard_reads_only_exported_metrics_and_labels() -> None:
    assert_exported(dashboard_queries(), exported())


@pytest.mark.django_db
def test_the_dashboard_shows_every_exported_metric() -> None:
    queries = "\n".join(dashboard_queries())
    shown = set(METRIC.findall(queries))
    families = {base for base, _ in exported().values()}
    missing = {family for family in families if not any(base_of(name) == family for name in shown)}
    assert not missing, f"metrics no dashboard panel shows: {sorted(missing)}"


def exported() -> dict[str, tuple[str, set[str]]]:
    """Every sample name GET /metrics can show: its family's name and its label names. The
    counters and histograms as registered (``petstore.metrics``), the gauges as the webhooks'
    collector yields them from the test database."""
    defined = {
        metric._name: set(metric._labelnames)
        for metric in vars(petstore.metrics).values()
        if isinstance(metric, MetricWrapperBase)
    }
    names: dict[str, tuple[str, set[str]]] = {}
    for family in REGISTRY.collect():
        if family.name not in defined:
            continue
        for suffix in SUFFIXES[family.type]:
            labels = defined[family.name] | ({"le"} if suffix == "_bucket" else set())
            names[family.name + suffix] = (family.name, labels)
    assert set(defined) <= {base for base, _ in names.values()}, "a metric not registered"
    for family in WebhookCollector().collect():
        for sample in family.samples:
            _, labels = names.setdefault(sample.name, (family.name, set()))
            labels.update(sample.labels)
    return names


def assert_exported(queries: list[str], names: dict[str, tuple[str, set[str]]]) -> None:
    for query in queries:
        unquoted = re.sub(r'"(?:[^"\\]|\\.)*"', '""', query)
        for name in METRIC.findall(unquoted):
            assert name in names, f"{name} is not a metric GET /metrics exports (in: {query})"
        for name, matchers in SELECTOR.findall(query):
            labels = set(MATCHER.findall(matchers)) - {"job", "instance"}
            unknown = labels - names[name][1]
            assert not unknown, f"{name} has no label {sorted(unknown)} (in: {query})"


def base_of(name: str) -> str:
    return re.sub(r"_(total|bucket|sum|count)$", "", name)


def alert_rules() -> list[dict[str, Any]]:
    rules = yaml.safe_load((PROMETHEUS / "alerts.yml").read_text())
    found = [rule for group in rules["groups"] for rule in group["rules"] if "alert" in rule]
    assert found
    return found


def dashboard_queries() -> list[str]:
    """Every panel target's expression and every query variable's query."""
    dashboard = json.loads(DASHBOARD.read_text())
    queries = [
        target["expr"] for panel in all_panels(dashboard) for target in panel.get("targets", [])
    ]
    for variable in dashboard["templating"]["list"]:
        if variable["type"] == "query":
            query = variable["query"]
            query = query["query"] if isinstance(query, dict) else query
            # Grafana's `label_values(selector, label)`, as the PromQL it stands for.
            queries.append(LABEL_VALUES.sub(r"group by (\2) (\1)", query))
    assert queries
    return queries


def all_panels(dashboard: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for panel in dashboard["panels"]:
        yield panel
        yield from panel.get("panels", [])  # a collapsed row's own
