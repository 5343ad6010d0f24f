"""The demo: ``scripts/demo`` starts the whole stack on one machine, with a project whose
history memsync made itself (``seed``, run by ``manage.py memsync_demo``), and stops every
process it started on Ctrl-C (``supervisor``)."""
