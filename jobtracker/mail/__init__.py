"""Mail in, read-only: the user's Maildir and IMAP folders into `messages`.

`maildir` syncs a Maildir (never writing to it); `imap` does the same over IMAP
with EXAMINE and BODY.PEEK; both parse with the one header `policy` and link each
message to an application with `link`. The inbox task reads what they stored.
"""
