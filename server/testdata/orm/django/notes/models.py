from django.db import models


class Note(models.Model):
    title = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    stars = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["title"])]
