"""Real HTTP servers on 127.0.0.1 that tests start: the model server, job boards, feeds."""
