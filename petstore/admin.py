from __future__ import annotations

from django.contrib import admin

admin.site.site_header = "Pet store administration"
admin.site.site_title = "Pet store admin"
admin.site.index_title = "Animals, adoptions and customer accounts"
