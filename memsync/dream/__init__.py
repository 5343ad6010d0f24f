"""The dream: gated consolidation of a memory directory, proposed on a branch (SPEC D).

- :mod:`~memsync.dream.gates` — whether to dream now (D1), cheapest gate first;
- :mod:`~memsync.dream.locks` — the file lock and the Redis lock (D2);
- :mod:`~memsync.dream.sessions` — the scan throttle on a developer machine (its sessions
  are :mod:`memsync.extract.sessions`);
- :mod:`~memsync.dream.engine` — what an engine gets and returns; the engines themselves
  live in ``deterministic``/``llm`` and are chosen by name in :mod:`~memsync.dream.engine_choice`;
- :mod:`~memsync.dream.run` — one dream under both locks, committed on ``dream/<id>`` (D5);
- :mod:`~memsync.dream.progress` — what the dashboard shows while it runs (D7);
- :mod:`~memsync.dream.proposals` and :mod:`~memsync.dream.adoption` — proposals read
  from Git, and approve / reject / revert.

Nothing here reads settings or the environment: the CLI and the Django layer do, and
pass what they found as arguments.
"""
