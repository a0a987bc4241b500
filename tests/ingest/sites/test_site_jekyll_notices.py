"""Minimal Mistakes notices (kramdown block IALs and HTML blocks) get a label."""

from __future__ import annotations

from murar.ingest.sites import jekyll


def test_minimal_mistakes_notice_classes_are_labelled() -> None:
    text = ("Back up the folder first.\n{: .notice--warning}\n\n"
            "{: .notice--info}\nThe cache lives in memory.\n\n"
            "Plain notice text.\n{: .notice}\n\n"
            '<div class="notice--danger" markdown="1">\nDropping the table loses its rows.\n</div>\n\n'
            "Just a styled paragraph.\n{: .text-center}\n")
    out = jekyll.strip_kramdown(text, jekyll.callout_titles({}))
    assert "**Warning:** Back up the folder first." in out
    assert "**Info:** The cache lives in memory." in out
    assert "**Note:** Plain notice text." in out
    assert "**Danger:** Dropping the table loses its rows." in out
    assert "**" not in out.split("Just a styled")[1] and "{:" not in out


def test_configured_callouts_still_decide() -> None:
    titles = jekyll.callout_titles({"site.callouts.notice--info.color": "blue"})  # configured, untitled
    out = jekyll.strip_kramdown("Text.\n{: .notice--info}\n", titles)
    assert "**" not in out
