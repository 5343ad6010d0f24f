"""The dashboard's forms: filters read from query strings, and every state change."""

from __future__ import annotations

from django import forms
from django.contrib.auth.models import User
from django.db.models import Q, QuerySet

from memsync.memory import MEMORY_TYPES

from .models import Membership, Role

NO_TYPE = "none"


class IndexFilterForm(forms.Form):
    """Filters of the index page, as query parameters so they work without JavaScript."""

    AGE_CHOICES = [
        ("", "any age"),
        ("fresh", "fresh (today or yesterday)"),
        ("stale", "older than a day"),
        ("30", "older than 30 days"),
        ("90", "older than 90 days"),
    ]

    type = forms.ChoiceField(
        required=False,
        choices=[("", "any type"), *((t, t) for t in MEMORY_TYPES), (NO_TYPE, "no type")],
    )
    age = forms.ChoiceField(required=False, choices=AGE_CHOICES)

    def is_filtering(self) -> bool:
        return self.is_valid() and bool(self.cleaned_data["type"] or self.cleaned_data["age"])

    def accepts(self, memory_type: str | None, days: int | None) -> bool:
        """Whether an entry of this type and age passes the filters."""
        if not self.is_valid():
            return True
        wanted_type = self.cleaned_data["type"]
        if wanted_type == NO_TYPE and memory_type is not None:
            return False
        if wanted_type and wanted_type != NO_TYPE and memory_type != wanted_type:
            return False
        age = self.cleaned_data["age"]
        if not age:
            return True
        if days is None:
            return False
        if age == "fresh":
            return days <= 1
        if age == "stale":
            return days > 1
        return days > int(age)


class TokenForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        help_text="Where it is used, e.g. “laptop” or “CI”.",
        widget=forms.TextInput(attrs={"placeholder": "laptop"}),
    )


class MemberAddForm(forms.Form):
    """Add a user to a project by name — only a user the maintainer may know of.

    That is a colleague from one of the maintainer's projects, or an account in no project
    yet (made by an administrator to be onboarded); staff may add anyone. A user who works
    only on projects the maintainer cannot see gets the same answer as a name nobody has,
    so the form cannot be used to find out who uses the server.
    """

    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=Role.choices, initial=Role.MEMBER)

    def __init__(self, *args: object, adder: User, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.adder = adder

    def clean_username(self) -> User:
        name = self.cleaned_data["username"].strip()
        user = addable_users(self.adder).filter(username=name).first()
        if user is None:
            raise forms.ValidationError(f"There is no user named “{name}” you can add.")
        return user


def addable_users(adder: User) -> QuerySet[User]:
    active = User.objects.filter(is_active=True)
    if adder.is_staff or adder.is_superuser:
        return active
    their_projects = Membership.objects.filter(user=adder).values("project")
    colleagues = Q(memberships__project__in=their_projects)
    return active.filter(colleagues | Q(memberships__isnull=True)).distinct()


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Role.choices)


class ApproveForm(forms.Form):
    """Partial adoption: the files of a proposal the maintainer keeps (checked boxes)."""

    def __init__(self, *args: object, files: list[str], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["keep"] = forms.MultipleChoiceField(
            required=False,
            choices=[(path, path) for path in files],
            widget=forms.CheckboxSelectMultiple,
            initial=files,
        )
        self.droppable = files

    def dropped(self) -> list[str]:
        kept = set(self.cleaned_data["keep"])
        return [path for path in self.droppable if path not in kept]


class ResolveForm(forms.Form):
    CHOICES = [("mine", "keep main's version"), ("theirs", "keep the member's version"),
               ("edit", "save the edited text")]  # fmt: skip

    choice = forms.ChoiceField(choices=CHOICES)
    content = forms.CharField(required=False, strip=False, widget=forms.Textarea)

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("choice") == "edit" and not data.get("content"):
            self.add_error("content", "Write the text to keep, or pick one side.")
        return data


class MemoryEditForm(forms.Form):
    """A memory's whole file, frontmatter included, as the maintainer edits it."""

    # strip=False: a memory's trailing newline and indentation are content.
    text = forms.CharField(widget=forms.Textarea, strip=False)
    # The version the editor started from, so a change made meanwhile is not overwritten.
    based_on = forms.CharField(widget=forms.HiddenInput, required=False, max_length=40)


COMMENT_MAX_CHARS = 10_000


class CommentForm(forms.Form):
    """A review comment: on the whole proposal (no path) or on one of its files."""

    body = forms.CharField(max_length=COMMENT_MAX_CHARS, strip=True, widget=forms.Textarea)
    path = forms.CharField(max_length=500, required=False)


class ViewedForm(forms.Form):
    """Mark one file of a proposal viewed (``viewed=1``) or not viewed again."""

    path = forms.CharField(max_length=500)
    viewed = forms.BooleanField(required=False)
