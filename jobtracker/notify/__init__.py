"""Notify: what reaches the user without their opening anything (docs/notify.md).

The family of the morning digest and its delivery:

- `digest`   what needs the user now, read from the database (plain data);
- `render`   that digest as text, Markdown, a small HTML mail and a short push (pure);
- `record`   which jobs each channel announced, and every digest sent;
- `channels` one module per destination (file, email, ntfy, webhook), each bounded by
             a total deadline;
- `send`     the whole of `digest --send`, the end of `jobtracker-tui --run`, and
             `check --send-test`.

Nothing here changes an application or a proposal; a digest only tells.
"""
