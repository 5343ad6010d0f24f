from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from dashboard import githttp
from dashboard.health import healthz

urlpatterns = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("healthz", healthz, name="healthz"),
    # For clients that ask for the icon without reading the page's <link rel="icon">.
    path(
        "favicon.ico",
        RedirectView.as_view(url=static("dashboard/favicon.svg"), permanent=True),
        name="favicon",
    ),
    path("admin/", admin.site.urls),
    path("git/<slug:slug>.git/<path:git_path>", githttp.git_endpoint, name="git"),
    path("api/", include("dashboard.recall_api")),  # before the API's catch-all 404
    path("api/", include("dashboard.api_urls")),
    path("", include("dashboard.urls")),
]
