"""One screen per module: dashboard, review, matches, help, and the small dialogs."""
