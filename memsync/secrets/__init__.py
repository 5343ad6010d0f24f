"""What may enter team memory (SPEC T4), and redaction of uploaded transcripts (T5).

Secrets are found with the regex detectors of Yelp's detect-secrets, a maintained rule
set installed from PyPI (`rules.py`), plus documented key formats it lacks
(`formats.py`) and values assigned to secret-named settings (`contextual.py`), minus
documented example keys (`judgement.py`); commit messages, people and file names are
scanned too (`metadata.py`), and transcripts are redacted as JSON (`transcripts.py`).
Sizes, encodings, paths and symlinks are checked here as well. Pure Python, no Git, no Django, no
settings: a pre-receive hook passes paths and blob bytes in and prints the findings'
messages, which never contain the secret.
"""

from memsync.secrets.checks import check_blob, check_path, check_symlink
from memsync.secrets.findings import MAX_BLOB_BYTES, Finding, FindingKind, printable_path
from memsync.secrets.rules import EXCLUDED_DETECTORS, RULES, Rule
from memsync.secrets.scan import redact, scan_text
from memsync.secrets.transcripts import redact_transcript

__all__ = [
    "EXCLUDED_DETECTORS",
    "MAX_BLOB_BYTES",
    "RULES",
    "Finding",
    "FindingKind",
    "Rule",
    "check_blob",
    "check_path",
    "check_symlink",
    "printable_path",
    "redact",
    "redact_transcript",
    "scan_text",
]
