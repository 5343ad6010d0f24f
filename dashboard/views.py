from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .models import Project


@login_required
def project_list(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)  # login_required guarantees an authenticated user
    projects = Project.objects.filter(memberships__user=user).distinct()
    return render(request, "dashboard/project_list.html", {"projects": projects})
