"""What happens in the demo project, and when: the people, their sessions and their pushes.

Four months of a small team's memory, told as events. Sessions are Claude Code
transcripts (``transcripts/*.jsonl``) in which alice and bob ask, in English and in
Chinese, for things to be remembered; pushes are memory files the two edit by hand on
their own clones. Together they leave the dream something real to do at the end: a
copy of alice's Friday rule that bob pushed under another name (a near-duplicate),
"last week" and "next year" in hand-written files (relative dates), an index line
pointing at a file bob never pushed (a dead pointer), a memory bob pushed without an
index line (an orphan), and memories more than 90 days old (which the dream leaves
alone: age is no evidence of staleness). Two edits of the release train, one from a clone
that had not pulled, leave a conflict to resolve.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

TRANSCRIPTS_DIR = Path(__file__).resolve().parent / "transcripts"

PROJECT_SLUG = "acme-shop"
PROJECT_NAME = "Acme Shop"


@dataclass(frozen=True)
class Persona:
    username: str
    password: str
    role: str  # viewer, member, maintainer
    full_name: str

    @property
    def email(self) -> str:
        return f"{self.username}@acme.example"


ALICE = Persona("alice", "alice-demo", "maintainer", "Alice Martin")
BOB = Persona("bob", "bob-demo", "member", "Bob Chen")
CAROL = Persona("carol", "carol-demo", "viewer", "Carol Diaz")
PEOPLE = (ALICE, BOB, CAROL)


@dataclass(frozen=True)
class Session:
    """A Claude Code session whose transcript the member uploaded; extracted on upload."""

    days_ago: float
    persona: Persona
    transcript: str  # file name in TRANSCRIPTS_DIR


@dataclass(frozen=True)
class Push:
    """Files a member edited by hand and pushed to ``members/<user>``.

    ``clone`` names the member's working clone: a push on a clone made earlier builds on
    what that clone had then (it did not pull), a new name clones ``main`` as it is now.
    ``copies`` maps a new path to (a phrase, a name): the new file takes the text of the
    memory on ``main`` that says the phrase, under that name.
    """

    days_ago: float
    persona: Persona
    clone: str
    files: dict[str, str] = field(default_factory=dict)
    copies: dict[str, tuple[str, str]] = field(default_factory=dict)
    index_lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class Dream:
    """A dream a maintainer starts from the dashboard; its proposal is left for review."""

    days_ago: float
    persona: Persona


Event = Session | Push | Dream

PROJECT_AGE_DAYS = 120

RELEASE_TRAIN = """\
---
name: Release train
description: When releases go out and who signs them off
type: project
---
Releases go out every {days} at {hour} UTC; the on-call engineer signs them off.

**Why:** support staffing is highest {when}.
**How to apply:** have changes merged by the evening before to make the train.
"""

PAYMENT_SANDBOX = """\
---
name: Payment sandbox
description: Which Stripe sandbox account staging uses, and where its test cards are listed
type: reference
---
We moved to the new Stripe sandbox account last week; the old sandbox keys no longer work.
Test card numbers are in the Stripe dashboard under Developers → Test cards.
"""

MOBILE_APP = """\
---
name: Mobile app checkout
description: The iOS app shows checkout in a web view of this service, at phone widths
type: project
---
The iOS app shows checkout in a web view of this service, so every checkout page must work
at 375 px wide.

**Why:** the app team does not ship a native checkout until next year.
**How to apply:** check checkout changes on a narrow viewport before merging them.
"""

TIMELINE: tuple[Event, ...] = (
    Session(118, ALICE, "alice-refunds.jsonl"),
    Push(
        90,
        ALICE,
        "alice-release",
        files={
            "project_release_train.md": RELEASE_TRAIN.format(
                days="Tuesday", hour="10:00", when="on Tuesday mornings"
            )
        },
        index_lines=(
            "- [Release train](project_release_train.md) — when releases go out, who signs off",
        ),
    ),
    Session(60, BOB, "bob-safari.jsonl"),
    Push(
        45,
        BOB,
        "bob-laptop",
        files={"payment-sandbox.md": PAYMENT_SANDBOX, "project_mobile_app.md": MOBILE_APP},
        # design-review.md stayed on bob's machine, and the mobile app memory never got
        # its index line: the dream finds a dead pointer and an orphan.
        index_lines=(
            "- [Payment sandbox](payment-sandbox.md) — staging's Stripe sandbox and test cards",
            "- [Design review](design-review.md) — how design reviews run before a release",
        ),
    ),
    Push(
        20,
        ALICE,
        "alice-thursdays",
        files={
            "project_release_train.md": RELEASE_TRAIN.format(
                days="Tuesday and Thursday", hour="10:00", when="on Tuesday and Thursday mornings"
            )
        },
    ),
    # bob edits the same lines on the clone he made 45 days ago, without pulling first.
    Push(
        19,
        BOB,
        "bob-laptop",
        files={
            "project_release_train.md": RELEASE_TRAIN.format(
                days="Wednesday", hour="14:00", when="on Wednesday afternoons"
            )
        },
    ),
    Session(12, ALICE, "alice-fridays.jsonl"),
    # bob keeps alice's Friday rule in his own memory too, under a name of his own.
    Push(
        5,
        BOB,
        "bob-desktop",
        copies={"no-friday-deploys.md": ("on a Friday", "No Friday deploys")},
        index_lines=(
            "- [No Friday deploys](no-friday-deploys.md) — checkout never ships on a Friday",
        ),
    ),
    Session(1, BOB, "bob-freeze.jsonl"),
    Session(0.1, ALICE, "alice-sandbox.jsonl"),
    Dream(0.05, ALICE),
)
