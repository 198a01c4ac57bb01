"""A run, in parts that each own their state.

- `setup`: a workspace's settings, loaded once per command (`Setup`, `RunOptions`).
- `queue`: what each task could do now (`TaskState`, `survey`, `choose`).
- `ledger`: the failure ledger, `task_attempts` (record, clear, set aside).
- `gate`: applying answers in the order units were listed (`InOrder`).
- `feeder`: one task's units through a run: batches, the budget, ask, parse, apply.
- `run`: the thin `Run` that wires them to the job loop, and `work()`.

`jobtracker.runner` re-exports the public names for the command line and the TUI.
"""
