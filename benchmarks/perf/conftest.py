"""pytest-benchmark runs here: `pytest benchmarks/perf --benchmark-enable`."""
