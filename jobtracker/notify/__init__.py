"""Notify: what reaches the user without their opening anything (docs/notify.md).

The family of the morning digest and its delivery:

- `digest`   what needs the user now, read from the database (plain data);
- `layout`   that digest as text, Markdown, a small HTML mail and a short push (pure);
- `record`   which jobs each channel announced, and every digest sent;
- `message`  the digest made into the message the channels send (jobtracker/channels/:
             the channel room, one module per destination besides the archive);
- `archive`  the file channel: every digest kept in the workspace;
- `send`     the whole of `digest --send`, the end of `jobtracker-tui --run`, and
             `check --send-test`.

Nothing here changes an application or a proposal; a digest only tells.
"""
