"""Shared test set-up: a non-interactive matplotlib backend and the book's fonts."""

import matplotlib

matplotlib.use("Agg")
