"""perfwiki bench: run a benchmark suite here and publish its raw output next to the old results.

Suites are data (suites/<name>.yaml, commands as jinja2 templates); runner.py renders,
checks the target is safe, runs, stores each run's transcript atomically under
content/reports/<report>/raw/<env>/, records the machine's facts on the environment
page, and ingests.
"""
