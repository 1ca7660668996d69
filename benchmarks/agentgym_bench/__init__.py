"""Benchmarks: suites played by agents into run folders, verified, and a leaderboard.

``suites`` resolves a suite; ``suite_runner.run_suite`` plays it (``scheduler``, ``player``)
into a ``run_folder.RunDir``; ``replay.verify_run`` judges a run; ``leaderboard`` stores verified
runs and ``site`` builds the board (docs/ARCHITECTURE.md §6).
"""
