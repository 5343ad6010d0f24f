from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .models import Project


@login_required
def project_list(request: HttpRequest) -> HttpResponse:
    projects = Project.objects.filter(memberships__user_id=request.user.pk).distinct()
    return render(request, "dashboard/project_list.html", {"projects": projects})
