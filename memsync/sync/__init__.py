"""Team sync on the server (SPEC T1–T4): who may push which ref, what a push may carry,
and how members' branches reach ``main``.

Kept import-free on purpose: the Git hooks run ``python -m memsync.sync.prereceive``
and ``python -m memsync.sync.postreceive`` on every push, so importing this package
must not pull in Django, Celery or the whole store. Import the submodules you need:

* ``memsync.sync.push_rules`` — which refs a member may push (pure);
* ``memsync.sync.inspection`` — what a push adds, checked with ``memsync.secrets``;
* ``memsync.sync.hooks`` — installing the hooks in a repository;
* ``memsync.sync.merge`` — merging ``members/<user>`` into ``main``, conflicts kept on
  refs, and their resolution;
* ``memsync.sync.status`` — main, pending merges and open proposals of a repository.
"""
