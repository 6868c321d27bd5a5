"""Benchmarks behind ``arena bench``; ratios are measured side by side in one run."""
