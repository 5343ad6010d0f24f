"""What may enter team memory (SPEC T4), and redaction of uploaded transcripts (T5).

Secrets are found with gitleaks' maintained rule set, vendored as `gitleaks.toml`;
sizes, encodings, paths and symlinks are checked here too. Pure Python, no Git, no
Django, no settings: a pre-receive hook passes paths and blob bytes in and prints the
findings' messages, which never contain the secret.
"""

from memsync.secrets.checks import check_blob, check_path, check_symlink
from memsync.secrets.findings import MAX_BLOB_BYTES, Finding, FindingKind
from memsync.secrets.rules import DROPPED_RULES, Rule, RuleSet, load_rules
from memsync.secrets.scan import redact, scan_text, shannon_entropy

__all__ = [
    "DROPPED_RULES",
    "MAX_BLOB_BYTES",
    "Finding",
    "FindingKind",
    "Rule",
    "RuleSet",
    "check_blob",
    "check_path",
    "check_symlink",
    "load_rules",
    "redact",
    "scan_text",
    "shannon_entropy",
]
