"""A name a memory cites counts as gone from the checkout only when the checkout has a
kin of it (issue 15 item 4, `memsync.dream.renamed`): a library's or a tool's name the
code never wrote is no evidence, a name the team renamed is."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsync.dream.code_checkout import CodeCheckout, code_evidence
from memsync.dream.renamed import Kin


@pytest.fixture
def checkout(tmp_path: Path) -> CodeCheckout:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "billing.py").write_text(
        "import json\nimport os\n\n"
        "STRIPE_SECRET_KEY = os.environ['STRIPE_SECRET_KEY']\n"
        "APP_REGION = os.environ.get('APP_REGION', 'eu')\n\n\n"
        "class InvoiceBuilder:\n    def to_dict(self): ...\n\n\n"
        "def import_customers(since):\n    return json.dumps({'since': since})\n\n\n"
        "def get_user(user_id): ...\n"
    )
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "app"\n')
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "seed_demo.py").write_text("print('seeding')\n")
    return CodeCheckout(tmp_path)


@pytest.mark.parametrize(
    "text",
    [
        # A tool's environment: the code need not write it for the memory to hold.
        "Set AWS_PROFILE=staging before running terraform plan.",
        "Tests need DJANGO_SETTINGS_MODULE set to the test settings.",
        "GITHUB_TOKEN must have the repo scope for the release workflow.",
        "Set NODE_OPTIONS=--max-old-space-size=4096 when building locally.",
        "Export HTTPS_PROXY in CI only.",
        # A library's names, and the checkout's own words beside them.
        "In the frontend, prefer `useQuery` over `useEffect` for fetching.",
        "Use `TypedDict` for JSON payload shapes; `to_dict()` stays for the API.",
        "Log with `structlog.get_logger()` and never print.",
        "Copy frozen settings with `dataclasses.replace()`, never by mutating them.",
        # A file of the user's or of a library, named alone (from real memories).
        "Add the hook to `settings.json` under hooks.",
        "The SIMD code needs `float.h` on macOS.",
        # Names the checkout has.
        "The handler reads APP_REGION from the environment.",
        "Customers are imported by `import_customers(since)`.",
    ],
)
def test_a_name_the_checkout_never_had_a_kin_of_is_no_evidence(
    checkout: CodeCheckout, text: str
) -> None:
    assert code_evidence(text, checkout) is None


@pytest.mark.parametrize(
    ("text", "cited", "nearest"),
    [
        ("Put a test key in STRIPE_API_KEY in .env.", "STRIPE_API_KEY", "STRIPE_SECRET_KEY"),
        ("The import is started by `sync_customers(since)`.", "sync_customers", "import_customers"),
        ("Invoice numbers come from the InvoiceGenerator class.", "InvoiceGenerator",
         "InvoiceBuilder"),
        ("The region is read from `APP_DEFAULT_REGION`.", "APP_DEFAULT_REGION", "APP_REGION"),
    ],
)  # fmt: skip
def test_a_renamed_name_is_flagged_with_the_checkouts_nearest(
    checkout: CodeCheckout, text: str, cited: str, nearest: str
) -> None:
    assert code_evidence(text, checkout) == (
        "symbol", f"cites {cited}, which the code checkout no longer has (nearest: {nearest})"
    )  # fmt: skip


def test_a_file_named_alone_is_gone_only_beside_one_like_it(checkout: CodeCheckout) -> None:
    assert code_evidence("Demo data comes from `seed_data.py`.", checkout) == (
        "path", "cites seed_data.py, which the code checkout no longer has "
        "(nearest: scripts/seed_demo.py)"
    )  # fmt: skip
    assert code_evidence("Demo data comes from `seed_data.sh`.", checkout) is None  # other kind


def test_the_nearest_kin_shares_most_words_then_is_shortest() -> None:
    names = ["BILLING_RETRY_LIMIT", "BILLING_RETRY_DELAY_SECONDS", "BILLING_URL", "billing_retry"]
    kin = Kin(names)

    assert kin.of("BILLING_RETRY_COUNT") == "BILLING_RETRY_LIMIT"  # two words, shortest
    assert kin.of("BILLING_TIMEOUT") == "BILLING_URL"
    assert kin.of("billing_retries") == "billing_retry"  # of its own kind: not in capitals
    assert Kin(["InvoiceTable", "import_invoices"]).of("sync_invoices") == "import_invoices"
    assert kin.of("GET_DATA") is None  # only words every code base has
