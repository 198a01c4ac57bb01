"""Widgets of the dashboard and the other screens."""
