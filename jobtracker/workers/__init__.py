"""A generic asyncio job loop: jobs as plain data, caps, events, reporters."""
