"""prepare: application packets for today's picks, filled from answers.yaml, no model.

The parts, each one idea:

- `answers`  answers.yaml: the answer bank, loaded and validated like every file
- `forms`    a form as typed fields: Greenhouse's public form, or the standard set
- `resolve`  pure: a form and the bank → one answer (or none) per field
- `packet`   the packet folder: its files rendered, written without losing edits
- `run`      picks, the form cache and downloads, and the whole `prepare`

It reaches no model: nothing here imports the model client.
"""
