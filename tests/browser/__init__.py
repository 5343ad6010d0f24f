"""The dashboard in a real browser (Playwright + Chromium)."""
