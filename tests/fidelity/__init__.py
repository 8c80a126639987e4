"""Differential tests: our profiles against the real engines they imitate, in process."""
