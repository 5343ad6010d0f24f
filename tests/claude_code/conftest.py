from tests.claude_code.harness import claude_binary, claude_code

__all__ = ["claude_binary", "claude_code"]
