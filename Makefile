# The two commands a newcomer needs: `make run` and `make test`. Everything installs into .venv.
SHELL := /bin/bash
PORT ?= 8000
UV := $(shell command -v uv 2>/dev/null || echo "python3 -m uv")
VENV := .venv
PY := $(VENV)/bin/python

# `make test` needs the real services; these defaults match a local install.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/petstore
TEST_REDIS_URL ?= redis://127.0.0.1:6379/15
TEST_ENV := DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} \
	REDIS_URL=$${REDIS_URL:-$(TEST_REDIS_URL)} \
	SECRET_KEY=$${SECRET_KEY:-test-only-secret-key} DEBUG=0
# make run: the embedded set-up (SQLite, in-process cache, one process), whatever the shell has.
RUN_ENV := env -u DATABASE_URL -u REDIS_URL DEBUG=1

.PHONY: install run serve test services chromium nginx promtool typescript clients client-tools compat-tools lint format bench mutate release clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml uv.lock
	@command -v uv >/dev/null 2>&1 || python3 -m uv --version >/dev/null 2>&1 \
		|| python3 -m pip install --quiet uv
	$(UV) sync --frozen --quiet
	@touch $@

run: install
	@$(RUN_ENV) $(PY) manage.py migrate --verbosity 0
	@$(RUN_ENV) $(PY) manage.py seed_demo
	@key=$$($(RUN_ENV) $(PY) manage.py demo_key $(if $(NEW_KEY),--new) | tail -n 1); \
	login=$$($(RUN_ENV) $(PY) manage.py local_admin); \
	echo; \
	echo "  Demo API key (Free plan: 60 requests/minute, 1,000/day; the same every run,"; \
	echo "  kept in .local-demo-key; make run NEW_KEY=1 issues another):"; \
	echo "    $$key"; \
	echo; \
	echo "  Try:  curl -i -H 'Authorization: Bearer $$key' http://127.0.0.1:$(PORT)/v1/pets"; \
	echo "  Docs: http://127.0.0.1:$(PORT)/docs/"; \
	echo "  Admin: http://127.0.0.1:$(PORT)/admin/  ($$login)"; \
	echo
	@mkdir -p $${PETSTORE_QUEUE_DIR:-.queue}
	@$(RUN_ENV) $(PY) -m celery --app petstore worker --beat --concurrency 2 \
		--loglevel WARNING --schedule $${PETSTORE_QUEUE_DIR:-.queue}/beat-schedule & worker=$$!; \
		trap 'kill $$worker 2>/dev/null' EXIT; \
		$(RUN_ENV) $(PY) manage.py runserver 127.0.0.1:$(PORT)

test: install services chromium nginx promtool typescript client-tools compat-tools
	@$(TEST_ENV) $(PY) -m pytest $(PYTEST_ARGS)

# PostgreSQL and Redis at the local defaults: started when stopped, installed when missing and we
# may; otherwise one line on what to run (.ci/services). A URL elsewhere is left alone.
services:
	@$(TEST_ENV) .ci/services

# The admin's browser tests drive Debian's Chromium (a test tool's own browser download cannot
# work offline). Installed when missing and we may; otherwise those tests fail saying so.
chromium:
	@command -v chromium >/dev/null 2>&1 || [ -n "$$PETSTORE_CHROMIUM" ] || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "Installing Chromium for the browser tests (apt-get)"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
		else \
			echo "Chromium is missing: the browser tests will fail. Install it: sudo apt-get install chromium"; \
		fi; }

# The front's tests (tests/front) and `make serve` run Debian's nginx. Installed when missing and
# we may (the package's own service is not started: the tests run their own instance on a free
# loopback port); otherwise those tests fail saying so.
NGINX := $(shell PATH="$$PATH:/usr/sbin:/usr/local/sbin" command -v nginx 2>/dev/null)
nginx:
	@[ -n "$(NGINX)" ] || [ -n "$$PETSTORE_NGINX" ] || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "Installing nginx for the front's tests (apt-get)"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; \
			if [ -s /run/nginx.pid ]; then nginx -s quit 2>/dev/null || true; fi; \
		else \
			echo "nginx is missing: the front's tests will fail. Install it: sudo apt-get install nginx"; \
		fi; }

# The operator files' tests (tests/metrics/test_operator_files.py) check the Prometheus config and
# run the alert rules' unit tests with promtool, from Debian's prometheus package. Installed when
# missing and we may (nothing needs a running Prometheus; where the package starts its own
# service, it is left running); otherwise those tests fail saying so.
promtool:
	@command -v promtool >/dev/null 2>&1 || [ -x /usr/bin/promtool ] || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "Installing promtool for the alert rules' tests (apt-get prometheus)"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
				--no-install-recommends prometheus >/dev/null; \
		else \
			echo "promtool is missing: the operator files' tests will fail. Install it: sudo apt-get install prometheus"; \
		fi; }

# The TypeScript contract test (tests/contract/test_typescript.py) compiles a partner's program with
# openapi-typescript, openapi-fetch and tsc, and the partner's-night test verifies deliveries with
# the standardwebhooks package, at the versions tests/typescript's lock pins, from the npm registry
# into .tools/. Without npm, those tests fail saying so.
TYPESCRIPT_TOOLS := .tools/typescript/node_modules/.installed
typescript: $(TYPESCRIPT_TOOLS)

$(TYPESCRIPT_TOOLS): tests/typescript/package.json tests/typescript/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "npm is missing: the TypeScript test will fail. Install Node.js 20 with npm."; exit 0; }; \
		mkdir -p .tools/typescript && cp $^ .tools/typescript/ && \
		npm ci --silent --no-audit --no-fund --prefix .tools/typescript && touch $@

# The SDKs (docs/design.md#sdks): clients/typescript's tools at its lock's versions, in .tools/;
# `make clients` regenerates both SDKs' generated code from the document, `make lint` fails when
# the committed code differs, and tests/clients builds and tests both against a running service.
CLIENT_TOOLS := .tools/clients/typescript/node_modules/.installed
client-tools: $(CLIENT_TOOLS)

$(CLIENT_TOOLS): clients/typescript/package.json clients/typescript/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "npm is missing: the SDK tests will fail. Install Node.js 20 with npm."; exit 0; }; \
		mkdir -p .tools/clients/typescript && cp $^ .tools/clients/typescript/ && \
		npm ci --silent --ignore-scripts --no-audit --no-fund --prefix .tools/clients/typescript && touch $@

# The compatibility promise (docs/compatibility.md): Optic's CLI at tests/compat's lock's versions,
# in .tools/; `make lint` compares today's document with the latest release's in
# openapi/releases/ and fails on a breaking change, and tests/compat shows what it refuses.
COMPAT_TOOLS := .tools/compat/node_modules/.installed
compat-tools: $(COMPAT_TOOLS)

$(COMPAT_TOOLS): tests/compat/package.json tests/compat/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "npm is missing: the compatibility check will fail. Install Node.js 20 with npm."; exit 0; }; \
		mkdir -p .tools/compat && cp $^ .tools/compat/ && \
		npm ci --silent --no-audit --no-fund --prefix .tools/compat && touch $@

clients: install $(CLIENT_TOOLS)
	$(PY) clients/generate.py

# make release VERSION=x.y.z: the changelog's Unreleased entries become the release's, the
# version is set, its document kept in openapi/releases/, and the SDKs stamped and regenerated.
release: install $(CLIENT_TOOLS)
	@test -n "$(VERSION)" || { echo "Usage: make release VERSION=x.y.z"; exit 2; }
	$(PY) openapi/release.py cut $(VERSION)
	$(LINT_ENV) $(PY) manage.py spectacular --file openapi/releases/$(VERSION).yaml
	$(PY) clients/generate.py

# make serve: the production stack in the foreground, nginx on $(SERVE_LISTEN) before gunicorn,
# configured from the environment (DATABASE_URL, REDIS_URL, SECRET_KEY required). Ctrl-C stops it.
SERVE_LISTEN ?= 127.0.0.1:8080
serve: install nginx
	@$(PY) -m deploy.serve --migrate --listen $(SERVE_LISTEN)

LINT_ENV := DATABASE_URL=sqlite://:memory: DEBUG=1
# The OpenAPI document is linted as client generators read it: Redocly's recommended rules,
# from the npm registry, into .tools/.
REDOCLY := .tools/node_modules/.bin/redocly

lint: install $(REDOCLY) $(CLIENT_TOOLS) $(COMPAT_TOOLS)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(LINT_ENV) $(VENV)/bin/mypy .
	$(VENV)/bin/mypy --config-file clients/python/pyproject.toml clients/python/src \
		clients/python/tests/typed_program.py
	$(LINT_ENV) $(PY) manage.py makemigrations --check --dry-run
	$(LINT_ENV) $(PY) manage.py spectacular --file .tools/openapi.yaml
	$(REDOCLY) lint .tools/openapi.yaml --format=stylish
	$(PY) openapi/compare.py .tools/openapi.yaml
	$(PY) openapi/release.py check .tools/openapi.yaml
	$(PY) clients/generate.py --check

$(REDOCLY):
	npm install --silent --no-audit --no-fund --prefix .tools @redocly/cli@2.77.0

# The benchmark: gunicorn + PostgreSQL + Redis against a raw WSGI floor, and through nginx,
# driven by wrk.
bench: install nginx
	@command -v wrk >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && apt-get install -y -qq wrk >/dev/null; } \
		|| { echo "wrk is missing: sudo apt-get install wrk"; exit 1; }
	$(PY) -m bench.run $(BENCH_ARGS)

# The mutation run (docs/mutation.md; not in CI, nor in `make test`): mutmut changes the modules
# [tool.mutmut] names in pyproject.toml one small way at a time, in mutants/, and runs the tests
# that call each changed function; every change no test notices is listed at the end. One at a
# time, as the tests share one database; run again, it tests only what changed since.
# MUTATE_ARGS: mutant names, to run only those. The test database is kept between mutants
# (--reuse-db): made afresh first, as one a flushing test left would have no plans.
mutate: install services
	@$(TEST_ENV) $(PY) -m pytest -q -p no:cacheprovider --reuse-db --create-db \
		tests/petstore/test_conditional.py::test_star_does_not_name_what_does_not_exist >/dev/null
	@$(TEST_ENV) $(VENV)/bin/mutmut run --max-children 1 $(MUTATE_ARGS)
	@$(VENV)/bin/mutmut results

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean:
	rm -rf $(VENV) .tools db.sqlite3 staticfiles .pytest_cache .mypy_cache .ruff_cache mutants
