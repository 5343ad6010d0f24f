from tests.claude_code.harness import claude_binary, claude_code
from tests.sync.conftest import git_server, team  # a live memsync server, for link/pull

__all__ = ["claude_binary", "claude_code", "git_server", "team"]
