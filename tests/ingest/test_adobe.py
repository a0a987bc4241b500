from murar.ingest.adobe import normalise, split_anchor


def test_inline_extensions_become_plain_text() -> None:
    out = normalise("Click **[!UICONTROL Save]** in [!DNL Journey Optimizer].")
    assert out == "Click **Save** in Journey Optimizer."


def test_attribute_lists_removed_anchor_kept() -> None:
    out = normalise('# Title {#top}\n![shot](a.png){zoomable="yes"}\n[x](y){target="_blank"}')
    assert "{#top}" in out
    assert "zoomable" not in out and "target" not in out
    assert split_anchor("Title {#top}") == ("Title", "top")
    assert split_anchor("Plain") == ("Plain", None)


def test_alerts_tabs_and_comments() -> None:
    src = ">[!NOTE]\n>\n>Be careful.\n\n>[!BEGINTABS]\n\n>[!TAB Web]\n\nDo web.\n\n>[!ENDTABS]\n<!-- secret\n<table>x</table> -->\nafter"
    out = normalise(src)
    assert "**Note:**" in out and "Be careful." in out
    assert "BEGINTABS" not in out and "ENDTABS" not in out
    assert "**Web**" in out
    assert "secret" not in out and "<table>" not in out
    assert out.rstrip().endswith("after")


def test_code_fences_untouched() -> None:
    src = "```\n[!UICONTROL keep] <!-- keep -->\n```\n[!UICONTROL drop]"
    out = normalise(src)
    assert "[!UICONTROL keep] <!-- keep -->" in out
    assert out.endswith("drop")


def test_unterminated_comment_hides_rest() -> None:
    assert "hidden" not in normalise("visible\n<!-- never closed\nhidden")


def test_contextual_help_keeps_title_and_abstract() -> None:
    out = normalise('>[!CONTEXTUALHELP]\n>id="x-1"\n>title="Enable it"\n>abstract="This option enables it."')
    assert "x-1" not in out
    assert "Enable it" in out and "This option enables it." in out


def test_a_collapsible_block_keeps_its_title_and_content_without_its_markers() -> None:
    src = ("Which audiences grew last week?\n\n+++ Response\n\n![The grid of audiences.](grid.png)\n\n+++\n\n"
           "+++Select to view the [!UICONTROL answer]\n\nAsk your administrator.\n\n+++\n\n```\n+++ kept in code\n```")
    out = normalise(src)
    assert "**Response**" in out and "**Select to view the answer**" in out
    assert "![The grid of audiences.](grid.png)" in out and "Ask your administrator." in out
    lines = out.split("\n")
    assert "+++ kept in code" in lines
    assert not [ln for ln in lines if ln.startswith("+++") and ln != "+++ kept in code"]
